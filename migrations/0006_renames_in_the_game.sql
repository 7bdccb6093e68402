-- A seat that changes hands is renamed inside the game too, so the board and later
-- lines name the newcomer. The match version at which it happened places the rename
-- among the actions on replay; older replacements (NULL) never renamed the game.

ALTER TABLE seat_replacements ADD COLUMN version INTEGER;
