package io.jobmon.events.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.events.config.EventsConfig;
import io.jobmon.events.status.JobModel;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The jobs a consumer keeps between batches: taken out by a batch, put back at their committed version. */
class JobStateCacheTest {

    static JobStateCache cache(int capacity) {
        return new JobStateCache(new EventsConfig() {
            public int retentionDays() {
                return 90;
            }

            public int partitionsAhead() {
                return 3;
            }

            public int quotaFirstPerReason() {
                return 1;
            }

            public int stateCacheJobs() {
                return capacity;
            }

            public String statusTopic() {
                return "jobmon.job.status";
            }
        });
    }

    static JobStateCache.Entry entry(String job, long version) {
        return new JobStateCache.Entry(JobModel.fresh(job, "c1"), Map.of(), version);
    }

    @Test
    void aBatchTakesItsJobsOutSoThatNoOtherBatchSharesThem() {
        JobStateCache c = cache(10);
        c.put(List.of(entry("a", 1), entry("b", 1)));
        assertEquals(Map.of(), c.take(List.of("x")));
        assertEquals(1, c.take(List.of("a", "x")).size());
        assertTrue(c.take(List.of("a")).isEmpty(), "taken: gone until put back");
        assertEquals(1, c.size());
    }

    @Test
    void theNewerVersionWinsWhenTwoBatchesPutTheSameJob() {
        JobStateCache c = cache(10);
        JobStateCache.Entry newer = entry("a", 5);
        c.put(List.of(newer));
        c.put(List.of(entry("a", 4)));
        assertSame(newer, c.take(List.of("a")).get("a"));
    }

    @Test
    void pastItsCapacityJobsGoAndAreReadAgainFromTheStore() {
        JobStateCache c = cache(2);
        c.put(List.of(entry("a", 1), entry("b", 1)));
        c.put(List.of(c.take(List.of("a")).get("a"))); // a applied again
        c.put(List.of(entry("c", 1)));
        assertEquals(2, c.size());
        assertEquals(2, c.take(List.of("a", "b", "c")).size(), "one of the three went");
        for (int i = 0; i < 100; i++) {
            c.put(List.of(entry("j" + i, 1)));
        }
        assertEquals(2, c.size(), "never more than its capacity");
    }

    @Test
    void capacityZeroKeepsNothing() {
        JobStateCache c = cache(0);
        c.put(List.of(entry("a", 1)));
        assertEquals(0, c.size());
    }
}
