package io.jobmon.diagnosis.engine;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns events, pod and container states into the texts patterns are matched against. Pod and
 * container states become {@code key=value} strings ({@code reason=OOMKilled exitCode=137}), so
 * catalogue patterns for the {@code pod} source can test reasons and exit codes.
 */
final class SourceTexts {

    private SourceTexts() {
    }

    /** {@code Reason: message}. */
    static String event(EvidenceBundle.Event e) {
        String reason = e.reason() == null ? "" : e.reason();
        String message = e.message() == null ? "" : e.message();
        return reason.isEmpty() ? message : reason + ": " + message;
    }

    /** The pod named by an event's {@code Kind/name} object, when the kind is Pod. */
    static String eventPod(EvidenceBundle.Event e) {
        return objectName(e.object(), "pod");
    }

    /** The node named by an event's {@code Kind/name} object, when the kind is Node. */
    static String eventNode(EvidenceBundle.Event e) {
        return objectName(e.object(), "node");
    }

    private static String objectName(String object, String kind) {
        if (object == null) {
            return null;
        }
        int slash = object.indexOf('/');
        if (slash <= 0 || !object.substring(0, slash).equalsIgnoreCase(kind)) {
            return null;
        }
        String name = object.substring(slash + 1).trim();
        return name.isEmpty() ? null : name;
    }

    static String podMatch(EvidenceBundle.Pod p) {
        return "pod phase=" + nz(p.phase()) + " node=" + nz(p.node()) + " reason=" + nz(p.reason())
                + " message=" + nz(p.message());
    }

    static String podDisplay(EvidenceBundle.Pod p) {
        StringBuilder sb = new StringBuilder("pod ").append(nz(p.name())).append(" phase ").append(nz(p.phase()));
        if (p.reason() != null) {
            sb.append(", reason ").append(p.reason());
        }
        if (p.message() != null) {
            sb.append(": ").append(p.message());
        }
        return sb.toString();
    }

    static String containerMatch(EvidenceBundle.Container c) {
        return "container=" + nz(c.name()) + " state=" + nz(c.state()) + " reason=" + nz(c.reason())
                + " exitCode=" + (c.exitCode() == null ? "" : c.exitCode())
                + " restartCount=" + (c.restartCount() == null ? "" : c.restartCount())
                + " message=" + nz(c.message());
    }

    static String containerDisplay(EvidenceBundle.Container c) {
        StringBuilder sb = new StringBuilder("container ").append(nz(c.name())).append(' ').append(nz(c.state()));
        if (c.reason() != null) {
            sb.append(" (").append(c.reason()).append(')');
        }
        if (c.exitCode() != null) {
            sb.append(", exit code ").append(c.exitCode());
        }
        if (c.restartCount() != null && c.restartCount() > 0) {
            sb.append(", restarts ").append(c.restartCount());
        }
        if (c.message() != null && !c.message().isBlank()) {
            sb.append(": ").append(c.message());
        }
        return sb.toString();
    }

    /** {@link #podDisplay} in Chinese: the cluster's reason and message in quotes, a known phase translated. */
    static String podDisplayZh(EvidenceBundle.Pod p) {
        StringBuilder sb = new StringBuilder("Pod ").append(nz(p.name())).append(" 阶段：")
                .append(zh(p.phase(), PHASES_ZH));
        if (p.reason() != null) {
            sb.append("，原因 “").append(p.reason()).append('”');
        }
        if (p.message() != null) {
            sb.append("：“").append(p.message()).append('”');
        }
        return sb.toString();
    }

    /** {@link #containerDisplay} in Chinese. */
    static String containerDisplayZh(EvidenceBundle.Container c) {
        StringBuilder sb = new StringBuilder("容器 “").append(nz(c.name())).append("” ")
                .append(zh(c.state(), STATES_ZH));
        if (c.reason() != null) {
            sb.append("（“").append(c.reason()).append("”）");
        }
        if (c.exitCode() != null) {
            sb.append("，退出码 ").append(c.exitCode());
        }
        if (c.restartCount() != null && c.restartCount() > 0) {
            sb.append("，已重启 ").append(c.restartCount()).append(" 次");
        }
        if (c.message() != null && !c.message().isBlank()) {
            sb.append("：“").append(c.message()).append('”');
        }
        return sb.toString();
    }

    private static final java.util.Map<String, String> PHASES_ZH = java.util.Map.of("Pending", "等待中",
            "Running", "运行中", "Succeeded", "已成功", "Failed", "已失败", "Unknown", "未知");
    private static final java.util.Map<String, String> STATES_ZH = java.util.Map.of("waiting", "等待中",
            "running", "运行中", "terminated", "已终止");

    /** A known Kubernetes phase or state in Chinese; another one quoted as the cluster wrote it. */
    private static String zh(String value, java.util.Map<String, String> known) {
        if (value == null) {
            return "未知";
        }
        String t = known.get(value);
        return t != null ? t : "“" + value + "”";
    }

    static String jobMatch(EvidenceBundle.Job j) {
        return "job status=" + nz(j.status()) + " queue=" + nz(j.queue()) + " priority=" + nz(j.priority());
    }

    private static final Pattern SYSLOG_HOST = Pattern.compile(
            "^(?:[A-Z][a-z]{2} [ \\d]\\d \\d\\d:\\d\\d:\\d\\d |\\d{4}-\\d\\d-\\d\\dT[\\d:.+-]{8,32}Z? )?"
                    + "(?<host>[A-Za-z0-9][\\w.-]{0,62}) kernel: ");

    /** The host of a syslog / journal kernel line ({@code Jul 13 10:14:58 gpu-7 kernel: ...}), or {@code null}. */
    static String syslogHost(String line) {
        if (line.indexOf(" kernel: ") < 0) {
            return null;
        }
        Matcher m = SYSLOG_HOST.matcher(line);
        return m.find() ? m.group("host") : null;
    }

    /** Shortens a quote to at most {@code max} characters, keeping the last carriage-return segment. */
    static String clip(String text, int max) {
        String s = text;
        int cr = s.lastIndexOf('\r');
        if (cr >= 0 && cr < s.length() - 1) {
            s = s.substring(cr + 1);
        }
        s = s.strip();
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
