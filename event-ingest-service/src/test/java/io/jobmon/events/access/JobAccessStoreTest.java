package io.jobmon.events.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.JobAccess;
import io.jobmon.contracts.access.Permission;
import io.jobmon.contracts.access.Visibility;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.InvalidRecordException;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.readmodel.JobAccessStore;
import io.jobmon.contracts.readmodel.JobGuard;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The shared job-access read model of contracts, on this service's schema. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
public class JobAccessStoreTest {

    static final Duration T = Duration.ofSeconds(10);

    @Inject
    JobAccessStore store;
    @Inject
    JobGuard guard;

    public static JobSnapshot snapshot(String jobId, String owner, String visibility, List<String> shares, long version,
            boolean deleted) {
        return new JobSnapshot(jobId, "t1", owner, "project-nlp", visibility, shares, "train", "local", "local", "default",
                null, null, "A100", 8, List.of(), List.of(), false, false, 0, 0, null, null, null, version, deleted);
    }

    static String newJob() {
        return "j-" + UUID.randomUUID();
    }

    Optional<JobAccess> find(String id) {
        return store.find(id).await().atMost(T);
    }

    @Test
    void aSnapshotIsStoredAndFound() {
        String id = newJob();
        store.apply(snapshot(id, "alice", "PROJECT", List.of("carol"), 1, false)).await().atMost(T);
        JobAccess a = find(id).orElseThrow();
        assertEquals("alice", a.owner());
        assertEquals("t1", a.tenant());
        assertEquals(Visibility.PROJECT, a.visibility());
        assertEquals(Set.of("carol"), a.shares());
    }

    @Test
    void anOlderOrRepeatedSnapshotChangesNothing() {
        String id = newJob();
        store.apply(snapshot(id, "alice", "PRIVATE", List.of("bob"), 5, false)).await().atMost(T);
        store.apply(snapshot(id, "alice", "PROJECT", List.of(), 4, false)).await().atMost(T);
        store.apply(snapshot(id, "alice", "PRIVATE", List.of("bob"), 5, false)).await().atMost(T);
        assertEquals(Visibility.PRIVATE, find(id).orElseThrow().visibility());
        store.apply(snapshot(id, "alice", "PROJECT", List.of(), 6, false)).await().atMost(T);
        assertEquals(Visibility.PROJECT, find(id).orElseThrow().visibility());
    }

    @Test
    void aDeletedSnapshotOrATombstoneHidesTheJob() {
        String a = newJob();
        store.apply(snapshot(a, "alice", "PRIVATE", List.of(), 1, false)).await().atMost(T);
        store.apply(snapshot(a, "alice", "PRIVATE", List.of(), 2, true)).await().atMost(T);
        assertTrue(find(a).isEmpty());
        String b = newJob();
        store.apply(snapshot(b, "alice", "PRIVATE", List.of(), 1, false)).await().atMost(T);
        store.applyRecord(b, null).await().atMost(T);
        assertTrue(find(b).isEmpty());
    }

    @Test
    void aRecordThatIsNotASnapshotIsRejectedWithAReason() {
        InvalidRecordException e = assertThrows(InvalidRecordException.class,
                () -> store.applyRecord("k", CloudEvents.encode("/t", JobSnapshot.TYPE, "k", java.util.Map.of("jobId", "k")))
                        .await().atMost(T));
        assertTrue(e.getMessage().contains("tenant"), e.getMessage());
    }

    @Test
    void theGuardAnswersNotFoundForTheInvisibleAndForbiddenForTheMerelyShared() {
        String id = newJob();
        store.apply(snapshot(id, "alice", "PRIVATE", List.of("carol"), 1, false)).await().atMost(T);
        Caller carol = new Caller("carol", "t1", Set.of("project-cv"), Set.of("user"));
        Caller erin = new Caller("erin", "t1", Set.of(), Set.of("user"));
        assertEquals("alice", guard.require(carol, id, Permission.VIEW).await().atMost(T).owner());
        ApiException forbidden = assertThrows(ApiException.class, () -> guard.require(carol, id, Permission.ACT).await().atMost(T));
        assertEquals(403, forbidden.status());
        ApiException hidden = assertThrows(ApiException.class, () -> guard.require(erin, id, Permission.VIEW).await().atMost(T));
        assertEquals(404, hidden.status());
        ApiException unknown = assertThrows(ApiException.class,
                () -> guard.require(erin, "no-such-job", Permission.VIEW).await().atMost(T));
        assertEquals(404, unknown.status());
        assertFalse(find("no-such-job").isPresent());
    }
}
