-- The table's votes that the AI play an absent player's seat. A vote counts only for the
-- absence it was cast in: the seat's player then (`user_id`, so a vote never binds whoever
-- takes the seat over) and the seat's decision count then (`decisions`: any move of the
-- seat, a timeout, or the seat handed to the AI and back moves it on). The log keeps a
-- sentence for each vote; votes written before this table (whose log line was only the
-- seat's number) read as one.

CREATE TABLE ai_votes (
    match_id  INTEGER NOT NULL REFERENCES matches (id),
    seat      INTEGER NOT NULL,  -- the seat voted for
    voter_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,  -- its player when the vote was cast
    decisions INTEGER NOT NULL,  -- its decision count then
    PRIMARY KEY (match_id, seat, voter_id)
);

UPDATE match_log SET text = 'A player asked that the AI play for an absent seat.'
WHERE kind = 'ai-vote';
