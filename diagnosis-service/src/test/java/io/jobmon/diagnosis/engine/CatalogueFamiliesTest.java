package io.jobmon.diagnosis.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The families of issue #25 that the pattern layer missed, in wordings that are not any catalogue row's example
 * (other numbers, paths, operations, tools), so the generic rules are what decides: an errno by the context of its
 * line, an exception class by its family and the device it names, object-store and native-loader errors, driver and
 * library mismatches, non-PyTorch stall reports, kernel resource errors; and lines that healthy jobs print stay
 * healthy.
 */
class CatalogueFamiliesTest {

    private static final DiagnosisEngine ENGINE = new DiagnosisEngine();

    private static Diagnosis failedWith(String line) {
        return ENGINE.analyze(BundleBuilder.job("FAILED").jobTime("startedAt", "2026-07-13T10:00:00Z")
                .jobTime("finishedAt", "2026-07-13T10:30:00Z").window("2026-07-13T10:00:00Z", "2026-07-13T10:30:00Z")
                .pod("w-0", "gpu-1", "Failed", "terminated", "Error", 1, 0)
                .log("2026-07-13T10:00:03Z", "w-0", "loading config from /workspace/conf/train.yaml")
                .log("2026-07-13T10:29:58Z", "w-0", line).build());
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            GPU_OOM | Out of memory error on GPU 1. Cannot allocate 512.000244MB memory on GPU 1, 31.5GB memory has been allocated and available memory is only 220.8MB.
            GPU_OOM | tensorflow.python.framework.errors_impl.ResourceExhaustedError: {{function_node __wrapped__MatMul_device_/job:localhost/replica:0/task:0/device:GPU:0}} OOM when allocating tensor with shape[16384,16384] and type float
            CONTAINER_OOM | tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with shape[1024,1024,256] and type float on /job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu
            GPU_OOM | RuntimeError: Malloc for kernel output failed, Memory isn't enough, node:Default/network-WithLossCell/_backbone-Net/Conv2D-op0
            CONTAINER_OOM | ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.
            NCCL_COMMUNICATION_ERROR | horovod.common.exceptions.HorovodInternalError: ncclCommInitRank failed: unhandled system error
            NCCL_COMMUNICATION_ERROR | (External) NCCL error(5), invalid usage.
            NCCL_COMMUNICATION_ERROR | tensorflow.python.framework.errors_impl.UnavailableError: failed to connect to all addresses; last error: UNKNOWN: ipv4:10.0.3.7:2222: Failed to connect to remote host: Connection refused
            DATA_PATH_ERROR | OSError: [Errno 122] Disk quota exceeded
            DATA_PATH_ERROR | cp: cannot create regular file '/mnt/jfs/out/model-00002.safetensors': Transport endpoint is not connected
            DATA_PATH_ERROR | OSError: [Errno 116] Stale file handle
            DATA_PATH_ERROR | ls: cannot access '/mnt/lustre/datasets/c4': Input/output error
            DATA_PATH_ERROR | tar: /data/shards/shard-0042.tar: Cannot open: Permission denied
            DATA_PATH_ERROR | botocore.exceptions.ClientError: An error occurred (AccessDenied) when calling the GetObject operation: Access Denied
            DATA_PATH_ERROR | botocore.exceptions.ClientError: An error occurred (SignatureDoesNotMatch) when calling the ListObjectsV2 operation: The request signature we calculated does not match the signature you provided.
            DATA_PATH_ERROR | botocore.exceptions.NoCredentialsError: Unable to locate credentials
            DATA_PATH_ERROR | minio.error.S3Error: S3 operation failed; code: NoSuchBucket, message: The specified bucket does not exist, resource: /train-data
            DEPENDENCY_MISSING | ImportError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.32' not found (required by /usr/local/lib/python3.8/site-packages/mmcv/_ext.cpython-38-x86_64-linux-gnu.so)
            DEPENDENCY_MISSING | OSError: libcudnn_cnn_infer.so.8: cannot open shared object file: No such file or directory
            NODE_FAILURE | Failed to initialize NVML: Driver/library version mismatch
            DEPENDENCY_MISSING | RuntimeError: CUDA error: no kernel image is available for execution on the device
            USER_CODE_ERROR | triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 98304, Hardware limit: 65536. Reducing block sizes or `num_stages` may help.
            USER_CODE_ERROR | RuntimeError: CUDA error: too many resources requested for launch
            USER_CODE_ERROR | ptxas error   : Entry function '_Z9attentionPfS_' uses too much shared data (0x18000 bytes, 0xc000 max)
            GPU_HARDWARE_FAULT | RuntimeError: CUDA error: uncorrectable NVLink error detected during the execution
            NCCL_COMMUNICATION_ERROR | RuntimeError: [/opt/gloo/transport/tcp/unbound_buffer.cc:133] Timed out waiting 1800000ms for send operation to complete
            NCCL_COMMUNICATION_ERROR | EI0002: The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank [7].
            NCCL_COMMUNICATION_ERROR | jaxlib.xla_extension.XlaRuntimeError: INTERNAL: external/xla/xla/service/gpu/nccl_utils.cc:297: NCCL operation ncclCommInitRank(&comm, nranks, id, rank) failed: unhandled system error
            GPU_OOM | jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Failed to load in-memory CUBIN: CUDA_ERROR_OUT_OF_MEMORY: out of memory
            DATA_PATH_ERROR | botocore.exceptions.ClientError: An error occurred (403) when calling the CreateMultipartUpload operation: Forbidden
            TRAINING_HANG | Missing ranks: 2: [DistributedAdamOptimizer_Allreduce/cond_13/HorovodAllreduce_grads_13_0]
            """)
    void aFailedJobsLastLineLandsInItsFamily(Category expected, String line) {
        Diagnosis d = failedWith(line);
        assertEquals(expected, d.category(), () -> d.summary());
    }

    @Test
    void theSameErrnoLandsByContext() {
        assertEquals(Category.NCCL_COMMUNICATION_ERROR,
                failedWith("RuntimeError: [c10d] recv from 10.0.0.7:29500 failed: Connection reset by peer").category());
        assertEquals(Category.DATA_PATH_ERROR,
                failedWith("OSError: [Errno 104] Connection reset by peer: '/mnt/nfs/ckpt/latest'").category());
        assertEquals(Category.GPU_HARDWARE_FAULT,
                failedWith("open /dev/nvidia3: Input/output error").category());
        assertEquals(Category.CONTAINER_OOM,
                failedWith("OSError: [Errno 28] No space left on device: '/dev/shm/torch_1234_567'").category());
        assertEquals(Category.CONTAINER_OOM, failedWith(
                "RuntimeError: unable to write to file </torch_18692_1954506624_0>: No space left on device (28)").category());
    }

    @Test
    void aNonPyTorchStallReportOfARunningJobIsAHang() {
        BundleBuilder b = BundleBuilder.job("RUNNING").jobTime("startedAt", "2026-07-13T10:00:00Z")
                .window("2026-07-13T10:00:00Z", "2026-07-13T10:40:00Z")
                .pod("w-0", "gpu-1", "Running", "running", null, null, 0)
                .logs("2026-07-13T10:00:00Z", 30, "w-0", BundleBuilder.tqdm(0, 4000, 20, 30, 0, 20));
        for (int m = 11; m <= 39; m++) {
            b.log("2026-07-13T10:" + m + ":00Z", "w-0", "[2026-07-13 10:" + m + ":00.000000: W /tmp/pip/horovod/common/"
                    + "stall_inspector.cc:107] One or more tensors were submitted to be reduced, gathered or broadcasted by"
                    + " subset of ranks and are waiting for remainder of ranks for more than 60 seconds.");
        }
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.TRAINING_HANG, d.category(), d::summary);
    }

    @Test
    void linesHealthyJobsPrintKeepThemHealthy() {
        BundleBuilder b = BundleBuilder.job("RUNNING").jobTime("startedAt", "2026-07-13T10:00:00Z")
                .window("2026-07-13T10:00:00Z", "2026-07-13T10:30:00Z")
                .pod("w-0", "gpu-1", "Running", "running", null, null, 0)
                .log("2026-07-13T10:00:01Z", "w-0", "gpu-1:123:123 [0] NCCL INFO NET/Plugin: Plugin load (libnccl-net.so)"
                        + " returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory")
                .log("2026-07-13T10:00:02Z", "w-0", "[W socket.cpp:464] [c10d] The server socket has failed to bind to"
                        + " [::]:29500 (errno: 98 - Address already in use).")
                .log("2026-07-13T10:00:03Z", "w-0", "/usr/lib/python3.10/site-packages/torch/utils/checkpoint.py:464:"
                        + " UserWarning: torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly.")
                .logs("2026-07-13T10:00:30Z", 30, "w-0", BundleBuilder.tqdm(0, 4000, 20, 30, 0, 59))
                .log("2026-07-13T10:29:45Z", "w-0", "WARNING:urllib3.connectionpool:Retrying (Retry(total=4, connect=None,"
                        + " read=None, redirect=None, status=None)) after connection broken by 'ProtocolError('Connection"
                        + " aborted.', ConnectionResetError(104, 'Connection reset by peer'))': /datasets/c4/part-0007");
        Diagnosis d = ENGINE.analyze(b.build());
        assertEquals(Category.HEALTHY, d.category(), d::summary);
        assertEquals(Action.NONE, d.action());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiterString = "~~", textBlock = """
            step 1200/5000 | loss 2.31 | 3.4 it/s ~~ 1200 ~~ 0.294
            [iter 120] 0.85s/iter ~~ 120 ~~ 0.85
            1200/5000 [=====>........................] - ETA: 12:01 - acc: 0.81 ~~ 1200 ~~ NaN
            Iter #120: 512.3 img/sec per GPU ~~ 120 ~~ NaN
            batch: 30 | 12.0 samples/sec ~~ 30 ~~ NaN
            """)
    void anUnknownPrinterStillYieldsAStepAndASpeed(String line, double step, double iter) {
        ProgressPoint p = ProgressParser.parseLine(line.strip(), Instant.parse("2026-07-13T10:00:00Z"), "w-0", 0);
        assertNotNull(p, line);
        assertEquals(step, p.step(), line);
        if (!Double.isNaN(iter)) {
            assertEquals(iter, p.iterSeconds(), 0.001, line);
        }
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            lines.add(line.strip().replaceFirst("(?<![\\d.])" + (long) step + "(?![\\d.])", String.valueOf((long) step + 10L * i)));
        }
        Diagnosis d = ENGINE.analyze(BundleBuilder.job("RUNNING").jobTime("startedAt", "2026-07-13T10:00:00Z")
                .window("2026-07-13T10:00:00Z", "2026-07-13T10:15:00Z").pod("w-0", "gpu-1", "Running", "running", null, null, 0)
                .logs("2026-07-13T10:00:00Z", 30, "w-0", lines).build());
        assertEquals(Category.HEALTHY, d.category(), d::summary);
        assertTrue(ProgressParser.parse(EvidenceBundle.fromJson(BundleBuilder.job("RUNNING").logs(
                "2026-07-13T10:00:00Z", 30, "w-0", lines).json()).logs()).size() == 30, line);
    }
}
