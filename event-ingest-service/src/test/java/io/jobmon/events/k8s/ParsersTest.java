package io.jobmon.events.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jobmon.contracts.events.InvalidRecordException;
import org.junit.jupiter.api.Test;

class ParsersTest {

    @Test
    void aPodIsReadWithItsJobConditionsAndContainers() {
        PodView p = Fixtures.pod("pod-crashloop");
        assertEquals("j-7f3a9c", p.jobId());
        assertEquals("train-llm-7f3a9c", p.k8sJob());
        assertEquals(1050, p.resourceVersion());
        assertEquals("OnFailure", p.restartPolicy());
        assertTrue(p.scheduled());
        ContainerView c = p.containers().get(0);
        assertEquals("CrashLoopBackOff", c.reason());
        assertEquals(3, c.restartCount());
        assertEquals("Error", c.lastReason());
        assertEquals(1, c.lastExitCode());
    }

    @Test
    void aTerminatedContainerHasReasonExitCodeAndMessage() {
        ContainerView c = Fixtures.pod("pod-failed-oomkilled").containers().get(0);
        assertTrue(c.terminated());
        assertTrue(c.failed());
        assertEquals(137, c.exitCode());
        assertEquals("2025-03-04T10:42:17Z", c.finishedAt().toString());
    }

    @Test
    void anUnscheduledPodIsNotScheduled() {
        assertFalse(Fixtures.pod("pod-unschedulable-gpu").scheduled());
    }

    @Test
    void aCoreEventIsReadWithCountAndTimes() {
        EventView e = Fixtures.event("event-backoff-5");
        assertEquals(5, e.count());
        assertEquals("2025-03-04T09:03:00Z", e.firstTime().toString());
        assertEquals("2025-03-04T09:09:00Z", e.lastTime().toString());
        assertEquals("Pod/train-llm-7f3a9c-0-x7k2p/spec.containers{trainer}", e.objectKey());
        assertEquals("kubelet", e.source());
    }

    @Test
    void anEventWithASeriesTakesItsCountAndLastObservedTime() {
        EventView e = Fixtures.event("event-failedscheduling-gpu");
        assertEquals(7, e.count());
        assertEquals("2025-03-04T09:06:41.883190Z", e.lastTime().toString());
        assertEquals("2025-03-04T09:00:01.204512Z", e.firstTime().toString());
    }

    @Test
    void anEventAboutAJobNamesIt() {
        EventView e = Fixtures.event("event-failedcreate-quota");
        assertTrue(e.aboutJob());
        assertEquals("train-llm-7f3a9c", e.objectName());
    }

    @Test
    void objectsWithoutIdentityAreInvalid() {
        ObjectNode pod = (ObjectNode) Fixtures.json("pod-running");
        ((ObjectNode) pod.get("metadata")).remove("uid");
        assertThrows(InvalidRecordException.class, () -> PodParser.parse(pod, false));
        ObjectNode rv = (ObjectNode) Fixtures.json("pod-running");
        ((ObjectNode) rv.get("metadata")).put("resourceVersion", "abc");
        assertThrows(InvalidRecordException.class, () -> PodParser.parse(rv, false));
        ObjectNode event = (ObjectNode) Fixtures.json("event-scheduled");
        event.remove("involvedObject");
        assertThrows(InvalidRecordException.class, () -> EventParser.parse(event));
    }
}
