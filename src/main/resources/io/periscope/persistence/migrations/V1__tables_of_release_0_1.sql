-- The tables and indexes Periscope owns in the journal database, as release 0.1.0 created them at every start.
-- IF NOT EXISTS: a database that release made only in part (the command line created the journal indexes but
-- not the wake-up index) is completed; one it made whole is baselined at this version instead.

-- The wake-up index (io.periscope.schedule.WakeUpIndex): one row per scheduled watch, derived from the journal.
CREATE TABLE IF NOT EXISTS periscope_wakeups (entity_id VARCHAR(255) PRIMARY KEY, due_at BIGINT NOT NULL);
CREATE INDEX IF NOT EXISTS periscope_wakeups_due_idx ON periscope_wakeups (due_at);

-- eventsByTag joins the tags to the events: pekko-persistence-jdbc 1.x has no index leading with the tag.
CREATE INDEX IF NOT EXISTS "event_tag_tag_idx" ON "event_tag" ("tag", "event_id");

-- A replay from a time (history since a date) starts at the write time instead of reading every event.
CREATE INDEX IF NOT EXISTS ${writeTimestampIndex} ON ${eventTable} (${writeTimestampColumn});
