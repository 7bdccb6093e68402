-- PostgreSQL's form of migration 0020: the `ai` timeout policy, which the CHECK of 0004
-- refused. The CHECK was added unnamed with its column: whatever name PostgreSQL gave it,
-- the check on `timeout_policy` is dropped and added again, named, with `ai`.

DO $$
DECLARE
    found TEXT;
BEGIN
    FOR found IN
        SELECT c.conname FROM pg_constraint c
        WHERE c.conrelid = 'matches'::regclass AND c.contype = 'c'
          AND pg_get_constraintdef(c.oid) LIKE '%timeout_policy%'
    LOOP
        EXECUTE format('ALTER TABLE matches DROP CONSTRAINT %I', found);
    END LOOP;
END $$;

ALTER TABLE matches ADD CONSTRAINT matches_timeout_policy
    CHECK (timeout_policy IN ('skip', 'abandon', 'ai'));
