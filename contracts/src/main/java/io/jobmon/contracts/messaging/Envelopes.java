package io.jobmon.contracts.messaging;

import io.jobmon.contracts.events.DiagnosisFinished;
import io.jobmon.contracts.events.JobCommand;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.contracts.events.K8sRawObject;
import io.jobmon.contracts.events.MetricSamples;

/** What each jobmon topic carries (architecture.md, "Kafka topics"), checked the same way by every consumer. */
public final class Envelopes {

    /** {@code jobmon.job.status}: key = subject = jobId. */
    public static final Envelope<JobStatusChanged> JOB_STATUS = Envelope.keyedBy(JobStatusChanged.TYPE,
            JobStatusChanged.class, JobStatusChanged::jobId);
    /** {@code jobmon.job.changes} (compacted): key = subject = jobId. */
    public static final Envelope<JobSnapshot> JOB_SNAPSHOT = Envelope.keyedBy(JobSnapshot.TYPE, JobSnapshot.class,
            JobSnapshot::jobId);
    /** {@code jobmon.diagnoses}: key = subject = jobId. */
    public static final Envelope<DiagnosisFinished> DIAGNOSIS = Envelope.keyedBy(DiagnosisFinished.TYPE,
            DiagnosisFinished.class, DiagnosisFinished::jobId);
    /** {@code jobmon.job.commands}: key = subject = jobId. */
    public static final Envelope<JobCommand> JOB_COMMAND = Envelope.keyedBy(JobCommand.TYPE, JobCommand.class,
            JobCommand::jobId);
    /** {@code jobmon.k8s.raw}: keyed by cluster/namespace/pod (a cluster agent may key differently). */
    public static final Envelope<K8sRawObject> K8S_RAW = Envelope.of(K8sRawObject.TYPE, K8sRawObject.class);
    /**
     * {@code jobmon.metrics.samples}: keyed by node; a batch may be larger than one event. The check of its JSON
     * records; a record whose first byte is 0x00 is the binary form ({@code MetricSamplesBinary}), under the same
     * size bound.
     */
    public static final Envelope<MetricSamples> METRIC_SAMPLES = Envelope.of(MetricSamples.TYPE, MetricSamples.class)
            .maxBytes(8 << 20);

    private Envelopes() {
    }
}
