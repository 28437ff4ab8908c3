-- contracts' consumer offsets (io.jobmon.contracts.messaging.OffsetRepository): the Kafka offsets whose effects are
-- stored, written in the transaction that stores them, so a re-read record (crash, rebalance) below next_offset is
-- skipped and every record changes the store exactly once. Loaded by every service that consumes in batches
-- (quarkus.flyway.locations); contracts owns it (docs/adr/0014-shared-tables-owned-by-contracts.md). IF NOT EXISTS:
-- a schema migrated before contracts owned the table has it already (applied out of order there, it changes nothing).
CREATE TABLE IF NOT EXISTS consumer_offset (
    topic           TEXT NOT NULL,
    kafka_partition INT NOT NULL,
    next_offset     BIGINT NOT NULL,
    PRIMARY KEY (topic, kafka_partition)
);
