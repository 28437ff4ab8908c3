package io.jobmon.sim.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jobmon.sim.JobServiceWorkload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The API server as job-service (create, delete) and event-ingest's watcher (list, watch, relist) use it. */
class SimApiServerTest {

    private static final String NS = "jobmon-jobs";
    private static final String JOB_LABEL = "jobmon.io/job-id";

    private SimApiServer server;
    private KubernetesClient client;

    @BeforeEach
    void start() {
        server = SimApiServer.start("127.0.0.1", 0);
        client = server.newClient(NS);
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    @Test
    void aClientFromTheWrittenKubeconfigCreatesAJobAsJobServiceBuildsIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("kubeconfig");
        server.writeKubeconfig(file, "sim", NS);
        var config = io.fabric8.kubernetes.client.Config.fromKubeconfig("sim", Files.readString(file), file.toString());
        try (KubernetesClient fromFile = new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(config).build()) {
            Job job = JobServiceWorkload.build("job-1", NS, 2, 8, Map.of("team", "nlp"));
            fromFile.batch().v1().jobs().inNamespace(NS).resource(job).create();

            List<Job> listed = fromFile.batch().v1().jobs().inNamespace(NS).withLabel(JOB_LABEL).list().getItems();
            assertEquals(1, listed.size());
            Job stored = listed.get(0);
            assertEquals("job-1", stored.getMetadata().getLabels().get(JOB_LABEL));
            assertEquals("Indexed", stored.getSpec().getCompletionMode());
            assertNotNull(stored.getMetadata().getUid());
            assertEquals("1", fromFile.getKubernetesVersion().getMajor());
        }
    }

    @Test
    void aWatchFromTheListedVersionGetsAPodCreatedAndDeletedInBetween() throws Exception {
        client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
                .withName(NS).endMetadata().build()).create();
        String listedAt = client.pods().inNamespace(NS).withLabel(JOB_LABEL).list().getMetadata().getResourceVersion();
        client.pods().inNamespace(NS).resource(pod("job-1-0-abcde", "job-1")).create();
        client.pods().inNamespace(NS).withName("job-1-0-abcde").delete();

        BlockingQueue<String> seen = new LinkedBlockingQueue<>();
        try (Watch w = client.pods().inNamespace(NS).withLabel(JOB_LABEL).withResourceVersion(listedAt)
                .watch(recorder(seen))) {
            assertEquals("ADDED job-1-0-abcde", take(seen).replaceAll(" rv=.*", ""));
            String deleted = take(seen);
            assertTrue(deleted.startsWith("DELETED job-1-0-abcde"), deleted);
        }
    }

    @Test
    void aDeletionCarriesItsOwnNewResourceVersionAsARealApiServerDoes() throws Exception {
        BlockingQueue<String> seen = new LinkedBlockingQueue<>();
        try (Watch w = client.pods().inNamespace(NS).withLabel(JOB_LABEL).watch(recorder(seen))) {
            // created once the watch is open: its ADDED comes live (the initial state is another test's)
            Pod created = client.pods().inNamespace(NS).resource(pod("p-1", "job-1")).create();
            assertEquals("ADDED p-1 rv=" + created.getMetadata().getResourceVersion(), take(seen));
            client.pods().inNamespace(NS).withName("p-1").delete();
            String deleted = take(seen);
            long rv = Long.parseLong(deleted.substring(deleted.indexOf("rv=") + 3));
            assertTrue(rv > Long.parseLong(created.getMetadata().getResourceVersion()), deleted);
        }
    }

    @Test
    void aWatchFromAVersionOlderThanTheHistoryIsGone() throws Exception {
        for (int i = 0; i < SimCrudDispatcher.HISTORY + 5; i++) {
            client.configMaps().inNamespace(NS).resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                    .withNewMetadata().withName("cm-" + i).endMetadata().build()).create();
        }
        BlockingQueue<WatcherException> closed = new LinkedBlockingQueue<>();
        try (Watch w = client.pods().inNamespace(NS).withResourceVersion("2").watch(new Watcher<Pod>() {
            @Override
            public void eventReceived(Action action, Pod resource) {
            }

            @Override
            public void onClose(WatcherException cause) {
                closed.add(cause);
            }
        })) {
            WatcherException gone = closed.poll(30, TimeUnit.SECONDS);
            assertNotNull(gone, "the watch was not closed");
            assertTrue(gone.isHttpGone(), gone.getMessage());
        }
    }

    @Test
    void informersOnTheJobLabelSeePodsWithItOnlyAndEventsInEveryNamespace() throws Exception {
        BlockingQueue<String> pods = new LinkedBlockingQueue<>();
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        SharedIndexInformer<Pod> podInformer = client.pods().inAnyNamespace().withLabel(JOB_LABEL).inform(handler(pods));
        SharedIndexInformer<Event> eventInformer = client.v1().events().inAnyNamespace().inform(handler(events));
        try {
            client.pods().inNamespace("gpu-operator").resource(new PodBuilder().withNewMetadata().withName("exporter")
                    .addToLabels("app", "nvidia-dcgm-exporter").endMetadata().build()).create();
            client.pods().inNamespace(NS).resource(pod("job-2-x", "job-2")).create();
            client.v1().events().inNamespace(NS).resource(new EventBuilder().withNewMetadata().withName("job-2-x.1")
                    .endMetadata().withReason("Scheduled").withNewInvolvedObject().withKind("Pod").withName("job-2-x")
                    .withNamespace(NS).endInvolvedObject().build()).create();
            assertEquals("add job-2-x", take(pods));
            assertEquals("add job-2-x.1", take(events));
            client.pods().inNamespace(NS).withName("job-2-x").delete();
            assertEquals("delete job-2-x", take(pods));
            assertNull(pods.poll(200, TimeUnit.MILLISECONDS), "the exporter pod has no job label");
        } finally {
            podInformer.stop();
            eventInformer.stop();
        }
    }

    @Test
    void aForegroundDeletionOfAJobWaitsForItsFinalizer() {
        Job job = JobServiceWorkload.build("job-3", NS, 1, 8, Map.of());
        client.batch().v1().jobs().inNamespace(NS).resource(job).create();

        client.batch().v1().jobs().inNamespace(NS).withName("job-3").withPropagationPolicy(DeletionPropagation.FOREGROUND)
                .delete();

        Job marked = client.batch().v1().jobs().inNamespace(NS).withName("job-3").get();
        assertNotNull(marked.getMetadata().getDeletionTimestamp());
        assertEquals(List.of(SimCrudDispatcher.FOREGROUND), marked.getMetadata().getFinalizers());
        client.batch().v1().jobs().inNamespace(NS).withName("job-3")
                .edit(j -> { j.getMetadata().setFinalizers(List.of()); return j; });
        assertNull(client.batch().v1().jobs().inNamespace(NS).withName("job-3").get());
    }

    private static Pod pod(String name, String jobId) {
        return new PodBuilder().withNewMetadata().withName(name).addToLabels(JOB_LABEL, jobId).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("x").endContainer().endSpec().build();
    }

    private static String take(BlockingQueue<String> q) throws InterruptedException {
        String s = q.poll(10, TimeUnit.SECONDS);
        assertNotNull(s, "nothing arrived");
        return s;
    }

    private static Watcher<Pod> recorder(BlockingQueue<String> seen) {
        return new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod p) {
                seen.add(action + " " + p.getMetadata().getName() + " rv=" + p.getMetadata().getResourceVersion());
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        };
    }

    private static <T extends io.fabric8.kubernetes.api.model.HasMetadata> ResourceEventHandler<T> handler(
            BlockingQueue<String> seen) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                seen.add("add " + obj.getMetadata().getName());
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
            }

            @Override
            public void onDelete(T obj, boolean unknown) {
                seen.add("delete " + obj.getMetadata().getName());
            }
        };
    }
}
