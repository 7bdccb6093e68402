-- PostgreSQL's form of migration 0009: a solitaire game's opponent and its difficulty.

ALTER TABLE results ADD COLUMN opponent TEXT;
ALTER TABLE results ADD COLUMN opponent_level INTEGER;

CREATE INDEX results_by_opponent ON results (user_id, game, opponent) WHERE opponent IS NOT NULL;
