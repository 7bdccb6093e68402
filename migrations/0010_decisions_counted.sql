-- A seat's decision count goes up with every action it logs (a concession too): the
-- database keeps that count itself, so logging an action is one statement fewer on
-- the hot path. Undos and seat hand-overs still move every count they need to.

CREATE TRIGGER actions_count_decisions AFTER INSERT ON actions
BEGIN
    UPDATE seats SET decisions = decisions + 1
     WHERE match_id = NEW.match_id AND seat = NEW.seat;
END;
