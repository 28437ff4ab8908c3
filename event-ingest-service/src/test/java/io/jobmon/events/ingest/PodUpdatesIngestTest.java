package io.jobmon.events.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.events.k8s.Fixtures;
import io.jobmon.events.k8s.PodVersions;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Through the broker: a pod that restarts after its crash-loop transition is published as a pods-only record. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class PodUpdatesIngestTest {

    static void send(String job, String pod, long rv, int restarts, String lastReason, int lastExit) {
        Store.send("c1/team-nlp/" + pod, Fixtures.record("c1", "MODIFIED",
                PodVersions.restarted(job, pod, rv, restarts, lastReason, lastExit), null));
    }

    @Test
    void aPodRestartedNineTimesIsPublishedWithNineRestartsAndTheStatusStays() {
        String job = "j-" + UUID.randomUUID().toString().substring(0, 8);
        String pod = job + "-p0";
        send(job, pod, 100, 0, null, 0);
        send(job, pod, 110, 3, "Error", 1);
        Store.statuses(job, 2);
        send(job, pod, 120, 9, "OOMKilled", 137);
        JobStatusChanged update = Store.podUpdates(job, 1).get(0);
        assertTrue(update.podsOnly());
        assertEquals(JobStatus.RUNNING, update.status());
        assertEquals(2, update.sequence());
        assertEquals(9, update.pods().get(0).containers().get(0).restartCount());
        assertEquals("OOMKilled", update.pods().get(0).containers().get(0).lastState().reason());
        List<JobStatusChanged> transitions = Store.statuses(job, 2);
        assertEquals(List.of("RUNNING", "RUNNING"), transitions.stream().map(t -> t.status().name()).toList());
        assertEquals("CrashLoopBackOff", transitions.get(1).reason());
        assertEquals("status.container.restarted", transitions.get(1).messageText().code());
        assertEquals("container trainer restarted 3 times; last run exited with code 1 (application error)",
                transitions.get(1).message());
    }
}
