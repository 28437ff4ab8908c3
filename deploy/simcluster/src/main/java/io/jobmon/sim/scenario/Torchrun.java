package io.jobmon.sim.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** What torchrun (torch.distributed.elastic) prints around the ranks it starts: its banner, SIGTERMs, failures. */
public final class Torchrun {

    /** torchrun's own pid in the container, and the first rank's. */
    static final int AGENT_PID = 1;
    static final int FIRST_RANK_PID = 64;

    private Torchrun() {
    }

    /** The OMP_NUM_THREADS banner torchrun prints when it starts more than one process. */
    public static void banner(Script s, Run r) {
        if (r.localRanks() < 2) {
            return;
        }
        String where = "torch/distributed/run.py:793";
        var t = r.timeAt(s.cursor());
        s.errLines(List.of(
                PyFormat.klog('W', t, AGENT_PID, where, ""),
                PyFormat.klog('W', t, AGENT_PID, where, "*****************************************"),
                PyFormat.klog('W', t, AGENT_PID, where, "Setting OMP_NUM_THREADS environment variable for each process "
                        + "to be 1 in default, to avoid your system being overloaded, please further tune the variable "
                        + "for optimal performance in your application as needed. "),
                PyFormat.klog('W', t, AGENT_PID, where, "*****************************************")));
    }

    /** The agent got SIGTERM (the pod is being stopped): it stops its workers and dies with signal 15 (exit 143). */
    public static void sigterm(Script s, Run r) {
        var t = r.timeAt(s.cursor());
        List<String> lines = new ArrayList<>();
        lines.add(PyFormat.klog('W', t, AGENT_PID, "torch/distributed/elastic/agent/server/api.py:719",
                "Received Signals.SIGTERM death signal, shutting down workers"));
        for (int i = 0; i < r.localRanks(); i++) {
            lines.add(PyFormat.klog('W', t.plusMillis(10), AGENT_PID, "torch/distributed/elastic/multiprocessing/api.py:897",
                    "Sending process " + (FIRST_RANK_PID + i) + " closing signal SIGTERM"));
        }
        lines.addAll(List.of("Traceback (most recent call last):",
                "  File \"/usr/local/bin/torchrun\", line 8, in <module>",
                "    sys.exit(main())",
                "  File \"/usr/local/lib/python3.10/dist-packages/torch/distributed/elastic/agent/server/api.py\", line 869, in _invoke_run",
                "    time.sleep(monitor_interval)",
                "  File \"/usr/local/lib/python3.10/dist-packages/torch/distributed/elastic/multiprocessing/api.py\", line 84, in _terminate_process_handler",
                "    raise SignalException(f\"Process {os.getpid()} got signal: {sigval}\", sigval=sigval)",
                "torch.distributed.elastic.multiprocessing.api.SignalException: Process 1 got signal: 15"));
        s.errLines(lines);
    }

    /**
     * A rank failed: torchrun stops the others, reports the failure and raises ChildFailedError; the container
     * exits 1.
     */
    public static void childFailed(Script s, Run r, String entry, int localRank, int exitcode) {
        var t = r.timeAt(s.cursor());
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < r.localRanks(); i++) {
            if (i != localRank) {
                lines.add(PyFormat.klog('W', t, AGENT_PID + 87, "torch/distributed/elastic/multiprocessing/api.py:897",
                        "Sending process " + (FIRST_RANK_PID + i) + " closing signal SIGTERM"));
            }
        }
        s.errLines(lines);
        s.after(Duration.ofSeconds(3));
        var t2 = r.timeAt(s.cursor());
        int pid = FIRST_RANK_PID + localRank;
        int rank = r.rank() * r.localRanks() + localRank;
        s.errLines(List.of(
                PyFormat.klog('E', t2, AGENT_PID + 87, "torch/distributed/elastic/multiprocessing/api.py:869",
                        "failed (exitcode: " + exitcode + ") local_rank: " + localRank + " (pid: " + pid + ") of binary: /usr/bin/python"),
                "Traceback (most recent call last):",
                "  File \"/usr/local/bin/torchrun\", line 8, in <module>",
                "    sys.exit(main())",
                "  File \"/usr/local/lib/python3.10/dist-packages/torch/distributed/elastic/multiprocessing/errors/__init__.py\", line 355, in wrapper",
                "    return f(*args, **kwargs)",
                "  File \"/usr/local/lib/python3.10/dist-packages/torch/distributed/run.py\", line 919, in main",
                "    run(args)",
                "  File \"/usr/local/lib/python3.10/dist-packages/torch/distributed/run.py\", line 910, in run",
                "    elastic_launch(",
                "  File \"/usr/local/lib/python3.10/dist-packages/torch/distributed/launcher/api.py\", line 138, in __call__",
                "    return launch_agent(self._config, self._entrypoint, list(args))",
                "  File \"/usr/local/lib/python3.10/dist-packages/torch/distributed/launcher/api.py\", line 269, in launch_agent",
                "    raise ChildFailedError(",
                "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
                "============================================================",
                entry + " FAILED",
                "------------------------------------------------------------",
                "Failures:",
                "  <NO_OTHER_FAILURES>",
                "------------------------------------------------------------",
                "Root Cause (first observed failure):",
                "[0]:",
                "  time      : " + t2.toString().substring(0, 19).replace('T', '_'),
                "  host      : " + r.pod(),
                "  rank      : " + rank + " (local_rank: " + localRank + ")",
                "  exitcode  : " + exitcode + " (pid: " + pid + ")",
                "  error_file: <N/A>",
                "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
                "============================================================"));
    }

    /** Prefixes every line with {@code [rankN]: } as torch prints a rank's traceback. */
    public static List<String> rankLines(int rank, List<String> lines) {
        return lines.stream().map(l -> "[rank" + rank + "]: " + l).toList();
    }
}
