package io.jobmon.diagnosis.engine;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The context a message was printed in, read from the rest of its line: an errno on a data path is a data-path error,
 * the same errno on a socket of a collective a communication error, on a device node a driver or hardware problem;
 * an out-of-memory class names the device whose memory ran out. Contexts are words a catalogue row's
 * {@code contexts} map uses (documented in {@code diagnosis/catalogues/README.md}). Only computed for a line that
 * matched a row with contexts, with {@code indexOf} checks and one bounded regex. Stateless.
 */
final class TextContext {

    /** Context words, in precedence order (the first one a line shows and a row names decides). */
    static final List<String> ORDER = List.of("object-store", "shm", "device", "python-import", "gpu", "host",
            "network", "storage");
    static final Set<String> KNOWN = Set.copyOf(ORDER);

    private static final String[] OBJECT_STORE = {"s3://", "s3a://", "oss://", "obs://", "boto", "minio", "bucket",
        "amazonaws.com", "x-amz-", "radosgw", "rgw", "s3 ", "s3fs", "s3.", "s3_", "objectstore", "object store"};
    private static final String[] SHM = {"/dev/shm", "shared memory", "shm_open", " shm ", "(shm)", "</torch_"};
    private static final String[] DEVICE = {"/dev/nvidia", "/dev/davinci", "/dev/infiniband", "/dev/dri", "/dev/kfd",
        "/dev/hisi", "/dev/devmm", "nvml", "nvidia-smi", "nvidia-uvm", "nvidia_uvm", "device node", "ioctl"};
    private static final String[] PYTHON_IMPORT = {"importerror", "import ", "dlopen", ".so", "shared object",
        "shared library", "modulenotfound"};
    private static final String[] GPU = {"cuda", "gpu", "npu", "hbm", "device memory", "vram", "cudamalloc",
        "/device:gpu", "xla:gpu", "ascend", "aicore", "accelerator", "on device", "device ", "tpu", "rocm", "hip "};
    private static final String[] HOST = {"cpu", "host memory", "host ", "system memory", "/device:cpu", "ram",
        "pinned", "raylet", "node memory", "memory monitor", "cgroup", "worker process", "memoryerror", "malloc", "heap",
        "java", "the node", "node running low"};
    private static final String[] NETWORK = {"socket", "connect", "recv", "send", "tcpstore", "c10d", "nccl", "gloo",
        "rendezvous", "ibv_", "net/", "hccl", "hccp", "mpi", "grpc", "rpc", "peer", "gcs", "tcp", "store", "port ",
        "collective", "allreduce", "all_reduce", "broadcast", "barrier", "horovod", "rdma", "roce", "infiniband",
        "master_addr", "http", "dns", "host unreachable"};
    private static final String[] STORAGE = {"/mnt/", "/data", "/nfs", "/ceph", "/cephfs", "/juicefs", "/jfs",
        "/lustre", "/gpfs", "/home/", "/workspace", "/ckpt", "/checkpoint", "/dataset", "/output", "/models", "/tmp/",
        "checkpoint", "ckpt", "dataset", "save", "open(", "mkdir", "rename", "fsync", "write", "read ",
        "file", "directory", "mount", "volume", "disk", "fuse", "nfs", "lustre", "juicefs", "cephfs", "ceph", ".pt",
        ".bin", ".safetensors", ".parquet", ".arrow", ".json", ".jsonl", ".tar", ".h5", ".npy", ".ckpt", ".pdparams"};
    /** A quoted absolute path or one after a space: {@code '/mnt/ceph/x'}, {@code  /data/set/}. */
    private static final Pattern PATH = Pattern.compile("(?:^|[\\s'\"(=:])/[\\w.@+-]{1,80}/[\\w.@+/-]{1,200}");

    private TextContext() {
    }

    /** The contexts a line shows, as a bit set over {@link #ORDER}. */
    static int of(String text) {
        String s = text.length() > 2048 ? text.substring(0, 2048) : text;
        String l = s.toLowerCase(Locale.ROOT);
        int mask = 0;
        mask |= any(l, OBJECT_STORE) ? bit("object-store") : 0;
        mask |= any(l, SHM) ? bit("shm") : 0;
        mask |= any(l, DEVICE) ? bit("device") : 0;
        mask |= any(l, PYTHON_IMPORT) ? bit("python-import") : 0;
        mask |= any(l, GPU) ? bit("gpu") : 0;
        mask |= any(l, HOST) ? bit("host") : 0;
        mask |= any(l, NETWORK) ? bit("network") : 0;
        mask |= any(l, STORAGE) || PATH.matcher(s).find() ? bit("storage") : 0;
        return mask;
    }

    private static final Map<String, String> SYNONYMS = Map.ofEntries(
            Map.entry("data-path", "storage"), Map.entry("storage-path", "storage"), Map.entry("filesystem", "storage"),
            Map.entry("file", "storage"), Map.entry("path", "storage"), Map.entry("checkpoint", "storage"),
            Map.entry("socket", "network"), Map.entry("collective", "network"), Map.entry("connection", "network"),
            Map.entry("s3", "object-store"), Map.entry("object-storage", "object-store"), Map.entry("objectstore", "object-store"),
            Map.entry("device-node", "device"), Map.entry("driver", "device"), Map.entry("import", "python-import"),
            Map.entry("library", "python-import"), Map.entry("shared-memory", "shm"), Map.entry("dev-shm", "shm"),
            Map.entry("cpu", "host"), Map.entry("host-memory", "host"), Map.entry("gpu-memory", "gpu"),
            Map.entry("accelerator", "gpu"), Map.entry("npu", "gpu"), Map.entry("device-memory", "gpu"));

    /** A row's context word in the engine's vocabulary (synonyms such as {@code data-path} → {@code storage}). */
    static String canonical(String word) {
        String w = word.trim().toLowerCase(Locale.ROOT);
        return SYNONYMS.getOrDefault(w, w);
    }

    /** The first context of {@code mask}, in precedence order, that {@code names} contains, or null. */
    static String pick(int mask, Set<String> names) {
        for (int i = 0; i < ORDER.size(); i++) {
            if ((mask & (1 << i)) != 0 && names.contains(ORDER.get(i))) {
                return ORDER.get(i);
            }
        }
        return null;
    }

    static int bit(String context) {
        return 1 << ORDER.indexOf(context);
    }

    /** A word occurs where no letter precedes it ("fuse" is not in "refused", "ram" not in "program"). */
    private static boolean any(String l, String[] words) {
        for (String w : words) {
            boolean letterFirst = Character.isLetter(w.charAt(0));
            for (int at = l.indexOf(w); at >= 0; at = l.indexOf(w, at + 1)) {
                if (!letterFirst || at == 0 || !Character.isLetter(l.charAt(at - 1))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The names of the contexts of a mask, for messages and tests. */
    static List<String> names(int mask) {
        return ORDER.stream().filter(c -> (mask & bit(c)) != 0).toList();
    }
}
