package io.jobmon.diagnosis.messaging;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.DiagnosisFinished;
import io.jobmon.contracts.events.JobCommand;
import io.jobmon.contracts.events.Topics;
import io.jobmon.contracts.outbox.Outbox;
import io.jobmon.diagnosis.repository.FaultActionRepository.FaultAction;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;

/**
 * What diagnosis-service publishes, written to the suite's outbox in the transaction that stores it (key jobId):
 * every finished diagnosis on {@code jobmon.diagnoses}, so that job-service shows the failure reason; every
 * command of automatic fault handling on {@code jobmon.job.commands}, whose id is the decision's id, so
 * job-service runs it at most once even if it is delivered twice.
 */
@ApplicationScoped
public class OutgoingEvents {

    static final String SOURCE = "/jobmon/diagnosis-service";

    private final Outbox outbox;

    public OutgoingEvents(Outbox outbox) {
        this.outbox = outbox;
    }

    public Uni<Void> finished(SqlClient tx, String diagnosisId, String jobId, String trigger, String category,
            String action, String summary, double confidence) {
        DiagnosisFinished event = new DiagnosisFinished(diagnosisId, jobId, trigger, category, action, summary,
                confidence, Instant.now());
        return outbox.append(tx, Topics.DIAGNOSES, jobId, CloudEvents.encode(SOURCE, DiagnosisFinished.TYPE, jobId, event));
    }

    public Uni<Void> command(SqlClient tx, FaultAction a) {
        // the diagnoses that decided, in order; the last one is recorded as the new attempt's cause
        List<String> diagnoses = a.firstDiagnosisId() == null ? List.of(a.secondDiagnosisId())
                : List.of(a.firstDiagnosisId(), a.secondDiagnosisId());
        JobCommand command = new JobCommand(a.id(), a.jobId(), JobCommand.Kind.valueOf(a.command()), diagnoses,
                a.reason(), a.createdAt());
        return outbox.append(tx, Topics.JOB_COMMANDS, a.jobId(),
                CloudEvents.encode(SOURCE, JobCommand.TYPE, a.jobId(), command));
    }
}
