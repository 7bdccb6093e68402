-- PostgreSQL's form of migration 0010: a seat's decision count goes up with every
-- action it logs.

CREATE FUNCTION actions_count_decisions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE seats SET decisions = decisions + 1
     WHERE match_id = NEW.match_id AND seat = NEW.seat;
    RETURN NULL;
END
$$;

CREATE TRIGGER actions_count_decisions AFTER INSERT ON actions
    FOR EACH ROW EXECUTE FUNCTION actions_count_decisions();
