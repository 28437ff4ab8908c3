package io.jobmon.metrics.scrape;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

/** Which port of an exporter pod discovery scrapes: a fixed number, or the container port of a name. */
class DiscoveryPortTest {

    private static Pod exporter(String portName, int port) {
        return new PodBuilder().withNewMetadata().withName("nvidia-dcgm-exporter-x7k2p").endMetadata().withNewSpec()
                .addNewContainer().withName("nvidia-dcgm-exporter").addNewPort().withName(portName).withContainerPort(port)
                .endPort().endContainer().endSpec().build();
    }

    @Test
    void aNumberIsTheSameOnEveryPod() {
        assertEquals(9400, KubernetesDiscovery.port(exporter("metrics", 19408), "9400"));
    }

    @Test
    void aNameIsTheNumberThePodDeclaresUnderIt() {
        assertEquals(19408, KubernetesDiscovery.port(exporter("metrics", 19408), "metrics"));
        assertEquals(19410, KubernetesDiscovery.port(exporter("metrics", 19410), "metrics"));
    }

    @Test
    void aPodWithoutThatNameHasNoTarget() {
        assertNull(KubernetesDiscovery.port(exporter("http-metrics", 9100), "metrics"));
        assertNull(KubernetesDiscovery.port(new PodBuilder().withNewSpec().addNewContainer().withName("c").endContainer()
                .endSpec().build(), "metrics"));
    }
}
