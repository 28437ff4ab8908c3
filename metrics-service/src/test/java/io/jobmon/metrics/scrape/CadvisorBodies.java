package io.jobmon.metrics.scrape;

import java.util.Locale;

/**
 * A kubelet's {@code /metrics/cadvisor} as a real node serves it (cAdvisor's families with {@code # HELP}/
 * {@code # TYPE}, labels {@code container, id, image, name, namespace, pod} in name order, network per sandbox
 * with {@code interface}, filesystem with {@code device}, every sample with its own timestamp in ms): the node's
 * root and system cgroups, a kube-system pod, and two jobs' pods — {@code a-0} (containers {@code main} and
 * {@code sidecar}, its network on the {@code POD} sandbox and the pod cgroup both) and {@code b-0}
 * ({@code main}, containerd-style network on the pod cgroup only). Scrape {@code i}: a-0/main's working set
 * {@code (i + 1)} GiB of a 4 GiB limit, 1.5 cores; b-0/main 0.5 cores; a-0 receives 1000 B/s, b-0 3000 B/s.
 */
final class CadvisorBodies {

    static final String NAMESPACE = "team-nlp";
    static final long GIB = 1L << 30;

    private CadvisorBodies() {
    }

    static String body(String podA, String podB, int i, long ms) {
        StringBuilder b = new StringBuilder();
        double sec = i * 15.0;
        family(b, "container_cpu_usage_seconds_total", "counter", "Cumulative cpu time consumed in seconds.");
        row(b, "container_cpu_usage_seconds_total", "", "/", "", "", "", "", 9_000 + sec * 40, ms);
        row(b, "container_cpu_usage_seconds_total", "", "/system.slice/kubelet.service", "", "", "", "", 800 + sec, ms);
        row(b, "container_cpu_usage_seconds_total", "kube-proxy", cri("kp"), "registry.k8s.io/kube-proxy:v1.29.4", "kp",
                "kube-system", "kube-proxy-x7k2p", 40 + sec * 0.01, ms);
        row(b, "container_cpu_usage_seconds_total", "", pod(podA), "", "", NAMESPACE, podA, 100 + sec * 1.6, ms);
        row(b, "container_cpu_usage_seconds_total", "POD", cri("pa"), "registry.k8s.io/pause:3.9", "pa", NAMESPACE, podA,
                0.02, ms);
        row(b, "container_cpu_usage_seconds_total", "main", cri("am"), "llama:1", "am", NAMESPACE, podA, 90 + sec * 1.5,
                ms);
        row(b, "container_cpu_usage_seconds_total", "sidecar", cri("as"), "fluent-bit:3", "as", NAMESPACE, podA,
                10 + sec * 0.1, ms);
        row(b, "container_cpu_usage_seconds_total", "", pod(podB), "", "", NAMESPACE, podB, 50 + sec * 0.5, ms);
        row(b, "container_cpu_usage_seconds_total", "main", cri("bm"), "llama:1", "bm", NAMESPACE, podB, 50 + sec * 0.5,
                ms);
        family(b, "container_memory_working_set_bytes", "gauge", "Current working set in bytes.");
        row(b, "container_memory_working_set_bytes", "", "/", "", "", "", "", 200 * GIB, ms);
        row(b, "container_memory_working_set_bytes", "", pod(podA), "", "", NAMESPACE, podA, (i + 1) * GIB + 64e6, ms);
        row(b, "container_memory_working_set_bytes", "main", cri("am"), "llama:1", "am", NAMESPACE, podA, (i + 1) * GIB,
                ms);
        row(b, "container_memory_working_set_bytes", "sidecar", cri("as"), "fluent-bit:3", "as", NAMESPACE, podA, 64e6,
                ms);
        row(b, "container_memory_working_set_bytes", "main", cri("bm"), "llama:1", "bm", NAMESPACE, podB, 2 * GIB, ms);
        family(b, "container_memory_rss", "gauge", "Size of RSS in bytes.");
        row(b, "container_memory_rss", "main", cri("am"), "llama:1", "am", NAMESPACE, podA, (i + 1) * GIB - 1e8, ms);
        row(b, "container_memory_rss", "main", cri("bm"), "llama:1", "bm", NAMESPACE, podB, GIB, ms);
        family(b, "container_spec_memory_limit_bytes", "gauge", "Memory limit for the container.");
        row(b, "container_spec_memory_limit_bytes", "main", cri("am"), "llama:1", "am", NAMESPACE, podA, 4 * GIB, ms);
        row(b, "container_spec_memory_limit_bytes", "sidecar", cri("as"), "fluent-bit:3", "as", NAMESPACE, podA, 0, ms);
        row(b, "container_spec_memory_limit_bytes", "main", cri("bm"), "llama:1", "bm", NAMESPACE, podB, 8 * GIB, ms);
        family(b, "container_network_receive_bytes_total", "counter", "Cumulative count of bytes received");
        net(b, "", pod(podA), "", podA, "eth0", 1e6 + sec * 1000, ms);
        net(b, "POD", cri("pa"), "registry.k8s.io/pause:3.9", podA, "eth0", 1e6 + sec * 1000, ms);
        net(b, "", pod(podB), "", podB, "eth0", 5e6 + sec * 3000, ms);
        family(b, "container_network_transmit_bytes_total", "counter", "Cumulative count of bytes transmitted");
        net(b, "POD", cri("pa"), "registry.k8s.io/pause:3.9", podA, "eth0", 2e6 + sec * 500, ms);
        net(b, "", pod(podB), "", podB, "eth0", 2e6 + sec * 700, ms);
        family(b, "container_fs_writes_bytes_total", "counter", "Cumulative count of bytes written");
        fs(b, "container_fs_writes_bytes_total", "main", cri("am"), podA, 4096 * sec * 10, ms);
        fs(b, "container_fs_writes_bytes_total", "main", cri("bm"), podB, 0, ms);
        family(b, "container_fs_usage_bytes", "gauge", "Number of bytes that are consumed by the container on this filesystem.");
        fs(b, "container_fs_usage_bytes", "main", cri("am"), podA, 1e9, ms);
        family(b, "container_threads", "gauge", "Number of threads running inside the container");
        row(b, "container_threads", "main", cri("am"), "llama:1", "am", NAMESPACE, podA, 120, ms);
        return b.toString();
    }

    private static String pod(String pod) {
        return "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" + Integer.toHexString(pod.hashCode())
                + ".slice";
    }

    private static String cri(String id) {
        return "/kubepods.slice/kubepods-burstable.slice/cri-containerd-" + id + "0f3c9e.scope";
    }

    private static void family(StringBuilder b, String name, String type, String help) {
        b.append("# HELP ").append(name).append(' ').append(help).append('\n');
        b.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private static void row(StringBuilder b, String name, String container, String id, String image, String cname,
            String namespace, String pod, double value, long ms) {
        b.append(name).append("{container=\"").append(container).append("\",id=\"").append(id).append("\",image=\"")
                .append(image).append("\",name=\"").append(cname).append("\",namespace=\"").append(namespace)
                .append("\",pod=\"").append(pod).append("\"} ").append(num(value)).append(' ').append(ms).append('\n');
    }

    private static void net(StringBuilder b, String container, String id, String image, String pod, String iface,
            double value, long ms) {
        String name = b.lastIndexOf("# TYPE container_network_transmit") > b.lastIndexOf("# TYPE container_network_receive")
                ? "container_network_transmit_bytes_total" : "container_network_receive_bytes_total";
        b.append(name).append("{container=\"").append(container).append("\",id=\"").append(id).append("\",image=\"")
                .append(image).append("\",interface=\"").append(iface).append("\",name=\"\",namespace=\"")
                .append(NAMESPACE).append("\",pod=\"").append(pod).append("\"} ").append(num(value)).append(' ')
                .append(ms).append('\n');
    }

    private static void fs(StringBuilder b, String name, String container, String id, String pod, double value, long ms) {
        b.append(name).append("{container=\"").append(container).append("\",device=\"/dev/nvme0n1p1\",id=\"").append(id)
                .append("\",image=\"llama:1\",name=\"x\",namespace=\"").append(NAMESPACE).append("\",pod=\"").append(pod)
                .append("\"} ").append(num(value)).append(' ').append(ms).append('\n');
    }

    /** As the Go client prints a float ({@code strconv 'g', -1}): {@code 1.073741824e+09}, {@code 120}, {@code 0.02}. */
    static String num(double v) {
        if (v == 0) {
            return "0";
        }
        java.math.BigDecimal d = new java.math.BigDecimal(Double.toString(v)).stripTrailingZeros();
        int exp = d.precision() - d.scale() - 1;
        if (exp < -4 || exp >= 6) {
            String digits = d.unscaledValue().abs().toString();
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            return (v < 0 ? "-" : "") + mantissa + "e" + (exp < 0 ? "-" : "+") + String.format(Locale.ROOT, "%02d",
                    Math.abs(exp));
        }
        return d.toPlainString();
    }
}
