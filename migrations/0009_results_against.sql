-- A solitaire game's result names the opponent the game itself played (a Mystic Vale
-- nemesis) and how hard it is (its difficulty, 1 to 4): the nemesis victory tracker
-- counts each player's wins and losses per nemesis from these. Other games leave them
-- empty. A solitaire game lost is recorded too (it has no winner).

ALTER TABLE results ADD COLUMN opponent TEXT;
ALTER TABLE results ADD COLUMN opponent_level INTEGER;

CREATE INDEX results_by_opponent ON results (user_id, game, opponent) WHERE opponent IS NOT NULL;
