package io.jobmon.logs.intake;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.regex.Pattern;

/** Records as the shippers write them (src/test/resources/shippers), retargeted to a test's job and pod. */
public final class Shippers {

    private Shippers() {
    }

    public static String record(String name) {
        try (InputStream in = Shippers.class.getResourceAsStream("/shippers/" + name + ".json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The record with its job label value {@code JOB} and pod placeholder {@code POD} replaced. */
    public static String record(String name, String job, String pod) {
        return record(name).replace("\"JOB\"", "\"" + job + "\"").replace("\"POD\"", "\"" + pod + "\"")
                .replace("llama-sft-worker-", pod == null ? "llama-sft-worker-" : pod + "-w");
    }

    public static RecordParser parser() {
        return new RecordParser("jobmon.io/job-id", Set.of("kubelet", "containerd", "kernel"),
                Pattern.compile(".*device-plugin.*|nvidia-driver.*|dcgm.*"));
    }
}
