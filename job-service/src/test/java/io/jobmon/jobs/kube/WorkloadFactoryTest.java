package io.jobmon.jobs.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class WorkloadFactoryTest {

    @Test
    void labelValuesAreMadeValid() {
        assertEquals("alice", WorkloadFactory.labelValue("alice"));
        assertEquals("alice_example.com", WorkloadFactory.labelValue("alice@example.com"));
        assertEquals("x", WorkloadFactory.labelValue("--x--"));
        assertEquals(63, WorkloadFactory.labelValue("a".repeat(80)).length());
    }
}
