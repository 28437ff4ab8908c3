package io.jobmon.sim.scenario;

import io.jobmon.sim.telemetry.GpuLoad;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Scenarios that run to their end, well or slowly: the default healthy run and its slow or odd variants. */
final class Runs {

    private Runs() {
    }

    /** A healthy training run: steady progress, a checkpoint halfway, the summary, exit 0. */
    static Script healthy(Run r) {
        Script s = new Script();
        TrainingLog t = Common.start(r, s);
        double sps = Common.secondsPerStep(r);
        t.train(Common.part(r, 0.5), Common.every(r), x -> sps).checkpoint("output");
        t.train(Common.part(r, 0.5), Common.every(r), x -> sps).checkpoint("output").summary(r.runTime());
        s.after(Duration.ofSeconds(3)).exit(0, "Completed");
        return s;
    }

    /**
     * A run resumed from a checkpoint: the bar starts at the checkpoint's step with elapsed zero, so its printed
     * rate falls all along while the real speed is steady. Ends well.
     */
    static Script resumeTrap(Run r) {
        Script s = new Script();
        TrainingLog t = Common.start(r, s);
        double sps = Common.secondsPerStep(r);
        int resumed = (int) (t.totalSteps() / 0.55 * 0.45);
        t.totalSteps((int) (t.totalSteps() / 0.55)).resumeAt(resumed).resumeLines();
        t.train(r.runTime(), Common.every(r), x -> sps).checkpoint("output").summary(r.runTime());
        s.after(Duration.ofSeconds(3)).exit(0, "Completed");
        return s;
    }

    /**
     * The GPUs wait on the input pipeline: PyTorch's DataLoader warning, torchvision-style lines where most of each
     * iteration's time is {@code data}, saw-tooth GPU utilisation, CPUs flat out. Ends well, slowly.
     */
    static Script dataloaderSlow(Run r) {
        Script s = new Script();
        s.step(new Step.HostMemory(40 * Common.GIB)).step(new Step.Cpu(0.3));
        s.after(Duration.ofSeconds(10));
        if (r.rank() == 0) {
            s.err("/usr/local/lib/python3.10/dist-packages/torch/utils/data/dataloader.py:557: UserWarning: This "
                    + "DataLoader will create 16 worker processes in total. Our suggested max number of worker in current "
                    + "system is 6, which is smaller than what this DataLoader is going to create. Please be aware that "
                    + "excessive worker creation might get DataLoader running slow or even freeze, lower the worker "
                    + "number to avoid potential slowness/freeze if necessary.");
        }
        s.after(Duration.ofSeconds(10));
        s.load(GpuLoad.starved(22_000, Duration.ofSeconds(90))).step(new Step.Cpu(0.99));
        var rnd = r.random();
        int total = 40037;
        int it = 18420;
        double avg = 4.02;
        Duration every = Common.every(r);
        for (Duration at = Duration.ZERO; at.compareTo(r.runTime()) < 0; at = at.plus(every)) {
            s.after(every);
            double time = 1.69 + rnd.nextDouble() * 0.2;
            it += Math.max(1, (int) (every.toSeconds() / time));
            if (r.rank() == 0) {
                double loss = 3.75 + rnd.nextDouble() * 0.35;
                long eta = (long) ((total - it) * time);
                s.out(String.format(java.util.Locale.ROOT, "Epoch: [3]  [%d/%d]  eta: %s  lr: 0.000387  loss: %.4f (%.4f)  time: %.4f  data: %.4f  max mem: 21873",
                        it, total, timedelta(eta), loss, avg, time, time - 0.31));
            }
        }
        s.after(Duration.ofSeconds(2)).exit(0, "Completed");
        return s;
    }

    /** Python's str(timedelta): {@code 11:02:41} or {@code 1 day, 2:03:04}. */
    static String timedelta(long seconds) {
        long days = seconds / 86_400;
        long rest = seconds % 86_400;
        String hms = String.format(java.util.Locale.ROOT, "%d:%02d:%02d", rest / 3600, (rest / 60) % 60, rest % 60);
        return days == 0 ? hms : days + (days == 1 ? " day, " : " days, ") + hms;
    }

    /**
     * The GPUs overheat: from 71 C to 90 C over half the run, thermal throttle reasons 0x20 then 0x60, SM clock down
     * by a third, the real step rate falls while utilisation stays ~97 %. Ends, late.
     */
    static Script throttling(Run r) {
        Script s = new Script();
        TrainingLog t = Common.start(r, s).stepsBar();
        Duration ramp = Common.part(r, 0.5);
        s.load(GpuLoad.overheating(97, r.trainingMemoryMiB(), ramp));
        double sps = Common.secondsPerStep(r);
        double rampSeconds = ramp.toSeconds() + s.cursor().toSeconds();
        t.train(r.runTime(), Common.every(r), x -> {
            double temp = 71 + 19 * Math.min(1, x / Math.max(1, rampSeconds));
            double slow = temp >= 84 ? Math.min(1, (temp - 84) / 6) : 0;
            return sps / (1 - 0.37 * slow);
        });
        s.after(Duration.ofSeconds(3)).exit(0, "Completed");
        return s;
    }

    /** The real step rate halves halfway through with nothing on the GPU side to explain it. Ends, late. */
    static Script slowdown(Run r) {
        Script s = new Script();
        TrainingLog t = Common.start(r, s);
        double sps = Common.secondsPerStep(r);
        t.train(Common.part(r, 0.5), Common.every(r), x -> sps);
        s.load(GpuLoad.training(48, r.trainingMemoryMiB()));
        t.train(Common.part(r, 0.5), Common.every(r), x -> sps * 2);
        s.after(Duration.ofSeconds(3)).exit(0, "Completed");
        return s;
    }

    /**
     * Progress stops: no more lines, the GPUs drop to 0 % and idle power with their memory still allocated. No error
     * and no exit: it hangs until stopped.
     */
    static Script hang(Run r) {
        Script s = new Script();
        TrainingLog t = Common.start(r, s);
        t.train(Common.part(r, 0.4), Common.every(r), x -> Common.secondsPerStep(r));
        s.after(Duration.ofSeconds(20));
        s.load(GpuLoad.stalled(r.trainingMemoryMiB())).step(new Step.Cpu(0.02)).step(new Step.Network(0));
        return s;
    }

    /** A Debug attempt ({@code sleep infinity}): the container runs, prints nothing, uses nothing, until stopped. */
    static Script idle(Run r) {
        Script s = new Script();
        s.load(GpuLoad.IDLE).step(new Step.Cpu(0.0)).step(new Step.Network(0));
        return s;
    }

    /**
     * Something sends SIGTERM mid-run and nothing says who: torchrun's SIGTERM lines, exit 143, no event, no error
     * before.
     */
    static Script unknown(Run r) {
        Script s = new Script();
        TrainingLog t = Common.start(r, s);
        t.train(Common.part(r, 0.5), Common.every(r), x -> Common.secondsPerStep(r));
        s.after(Duration.ofSeconds(17));
        Torchrun.sigterm(s, r);
        s.after(Duration.ofSeconds(1)).exit(143, "Error");
        return s;
    }

    /** An inference server (the preemptor of {@code preempted}): vLLM's start-up lines, then it serves. */
    static Script serving(Run r) {
        Script s = new Script();
        s.step(new Step.HostMemory(40 * Common.GIB)).step(new Step.Cpu(0.05));
        s.after(Duration.ofSeconds(3));
        String t = java.time.format.DateTimeFormatter.ofPattern("MM-dd HH:mm:ss").withZone(java.time.ZoneOffset.UTC)
                .format(r.timeAt(s.cursor()));
        s.out("INFO " + t + " api_server.py:528] vLLM API server version 0.6.3");
        s.after(Duration.ofSeconds(40));
        s.load(GpuLoad.training(38, (int) (r.model().memoryMiB() * 0.9)));
        s.out("INFO:     Started server process [1]");
        s.out("INFO:     Waiting for application startup.");
        s.out("INFO:     Application startup complete.");
        s.out("INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)");
        return s;
    }

    static List<String> lines(String... l) {
        return new ArrayList<>(List.of(l));
    }
}
