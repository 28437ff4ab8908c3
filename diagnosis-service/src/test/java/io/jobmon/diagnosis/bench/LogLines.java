package io.jobmon.diagnosis.bench;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A training job's output as Fluent Bit ships it (tail + cri parser, kubernetes filter, kafka output {@code format
 * json}): step lines, progress bars, NCCL INFO lines, warnings, checkpoints, spread over the run; 50 minutes before the
 * end an InfiniBand completion error on one rank, and at the end every rank's NCCL watchdog timeout.
 */
final class LogLines {

    private LogLines() {
    }

    /** @return bytes of log text produced */
    static long produce(KafkaProducer<String, String> producer, String topic, String job, int pods, long lines,
            Instant from, Instant to) {
        SplittableRandom rnd = new SplittableRandom(11);
        long span = Duration.between(from, to.minusSeconds(30)).toNanos();
        Instant ibError = to.minus(Duration.ofMinutes(50));
        boolean ibDone = false;
        long text = 0;
        for (long i = 0; i < lines; i++) {
            int p = (int) (i % pods);
            Instant t = from.plusNanos(span / lines * i);
            String line = line(rnd, p, i / pods);
            if (!ibDone && !t.isBefore(ibError)) {
                line = "gpu-node-00:4312:4390 [3] NCCL WARN NET/IB : Got completion from peer 10.0.0.9<4431> with "
                        + "status=12 opcode=0 len=0 vendor err 129 (Recv)";
                p = 3;
                ibDone = true;
            }
            text += send(producer, topic, job, p, t, line);
        }
        for (int p = 0; p < pods; p++) {
            text += send(producer, topic, job, p, to.minusSeconds(20), "[rank" + p + "]:[E ProcessGroupNCCL.cpp:607] [Rank "
                    + p + "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=88121, OpType=ALLREDUCE, "
                    + "NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600021 milliseconds before timing out.");
        }
        producer.flush();
        return text;
    }

    private static String line(SplittableRandom rnd, int rank, long step) {
        int r = rnd.nextInt(100);
        if (r < 50) {
            return String.format("[rank%d] step %d/%d loss=%.4f lr=%.3e grad_norm=%.3f tokens/s=%d", rank, step, 500_000,
                    2.5 / Math.log(step + 3.0) + rnd.nextDouble() * 0.05, 2e-5, 0.5 + rnd.nextDouble(), 3000 + rnd.nextInt(900));
        }
        if (r < 75) {
            int done = (int) (step % 1000);
            return String.format("%3d%%|%s%s| %d/1000 [%02d:%02d<%02d:%02d, %.2fit/s]", done / 10, "#".repeat(done / 100),
                    " ".repeat(10 - done / 100), done, done / 60, done % 60, (1000 - done) / 60, (1000 - done) % 60,
                    1.5 + rnd.nextDouble());
        }
        if (r < 90) {
            return String.format("gpu-node-00:%d:%d [%d] NCCL INFO Channel %02d/32 : %d[%d] -> %d[%d] via P2P/IPC/read",
                    4000 + rank, 4100 + rnd.nextInt(50), rank, rnd.nextInt(32), rank, rank, (rank + 1) % 8, (rank + 1) % 8);
        }
        if (r < 98) {
            return "/usr/local/lib/python3.10/dist-packages/torch/utils/checkpoint.py:464: UserWarning: "
                    + "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly.";
        }
        return "Saving model checkpoint to /mnt/ckpt/llama-sft/checkpoint-" + step;
    }

    private static int send(KafkaProducer<String, String> producer, String topic, String job, int rank, Instant t,
            String line) {
        String pod = SourceAnswers.pod(rank);
        String value = "{\"@timestamp\":" + t.getEpochSecond() + "." + String.format("%06d", t.getNano() / 1000)
                + ",\"time\":\"" + t + "\",\"stream\":\"stdout\",\"_p\":\"F\",\"log\":"
                + io.jobmon.contracts.events.CloudEvents.toJson(line) + ",\"kubernetes\":{\"pod_name\":\"" + pod
                + "\",\"namespace_name\":\"team-nlp\",\"labels\":{\"jobmon.io/job-id\":\"" + job + "\"},\"host\":\""
                + SourceAnswers.node(rank) + "\",\"container_name\":\"trainer\"}}";
        producer.send(new ProducerRecord<>(topic, "local/team-nlp/" + pod + "/trainer", value));
        return line.getBytes(StandardCharsets.UTF_8).length;
    }
}
