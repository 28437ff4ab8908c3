package io.jobmon.sim.scenario;

import io.jobmon.sim.telemetry.GpuLoad;
import java.time.Duration;
import java.util.List;

/** What every training container does first, and the figures scenarios share. */
final class Common {

    static final long GIB = 1L << 30;

    private Common() {
    }

    /** Start-up: torchrun's banner, the tokenizer, then the GPUs load up and rank 0 prints Trainer's header. */
    static TrainingLog start(Run r, Script s) {
        s.step(new Step.HostMemory(6 * GIB)).step(new Step.Cpu(0.04));
        s.after(Duration.ofSeconds(1));
        Torchrun.banner(s, r);
        s.after(Duration.ofSeconds(8));
        if (r.rank() == 0) {
            s.err("[INFO|tokenization_utils_base.py:2287] " + PyFormat.loggingTime(r.timeAt(s.cursor()))
                    + " >> loading file tokenizer.model");
        }
        s.after(Duration.ofSeconds(12));
        s.load(GpuLoad.training(93, r.trainingMemoryMiB()));
        s.step(new Step.HostMemory(96 * GIB)).step(new Step.Cpu(0.18))
                .step(new Step.Network(r.replicas() > 1 ? 6e9 : 2e8));
        s.after(Duration.ofSeconds(2));
        TrainingLog t = new TrainingLog(r, s).printing(r.rank() == 0).totalSteps(totalSteps(r));
        t.header(96_512, 32 * r.worldSize());
        return t;
    }

    /** Seconds a step takes on this GPU (H-class parts are faster). */
    static double secondsPerStep(Run r) {
        String m = r.model().shortName();
        return m.startsWith("H") ? 1.45 : 2.1;
    }

    /** Steps that make a healthy run last its run time. */
    static int totalSteps(Run r) {
        return (int) Math.max(50, r.runTime().toSeconds() / secondsPerStep(r));
    }

    /** How often the bar prints: a twentieth of the run, between 5 s and 60 s. */
    static Duration every(Run r) {
        Duration d = r.runTime().dividedBy(20);
        return d.compareTo(Duration.ofSeconds(5)) < 0 ? Duration.ofSeconds(5)
                : d.compareTo(Duration.ofSeconds(60)) > 0 ? Duration.ofSeconds(60) : d;
    }

    /** A fraction of the run time. */
    static Duration part(Run r, double f) {
        return Duration.ofMillis((long) (r.runTime().toMillis() * f));
    }

    /** The local rank a failure happens on: the fifth GPU when there are eight, else the last. */
    static int failingLocalRank(Run r) {
        return Math.min(5, r.localRanks() - 1);
    }

    /** The Python traceback of a Trainer training step, down to the frame that raises. */
    static List<String> trainerFrames(String script) {
        return List.of(
                "Traceback (most recent call last):",
                "  File \"" + script + "\", line 214, in <module>",
                "    main()",
                "  File \"" + script + "\", line 208, in main",
                "    trainer.train(resume_from_checkpoint=training_args.resume_from_checkpoint)",
                "  File \"/usr/local/lib/python3.10/dist-packages/transformers/trainer.py\", line 2052, in train",
                "    return inner_training_loop(",
                "  File \"/usr/local/lib/python3.10/dist-packages/transformers/trainer.py\", line 2388, in _inner_training_loop",
                "    tr_loss_step = self.training_step(model, inputs)",
                "  File \"/usr/local/lib/python3.10/dist-packages/transformers/trainer.py\", line 3518, in training_step",
                "    self.accelerator.backward(loss, **kwargs)");
    }
}
