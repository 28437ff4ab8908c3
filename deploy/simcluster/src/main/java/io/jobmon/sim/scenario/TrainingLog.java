package io.jobmon.sim.scenario;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.function.DoubleUnaryOperator;

/**
 * The progress lines of a training loop: tqdm bars as transformers' Trainer (or a diffusers-style "Steps:" bar)
 * prints them, its loss dicts, checkpoint saves and the closing summary. The bar's rate is tqdm's average,
 * steps shown over time elapsed since the bar started, so a bar that starts at a resumed step (the resume trap)
 * shows a rate that keeps falling while the real speed is steady.
 */
public final class TrainingLog {

    private static final String BLOCKS = " ▏▎▍▌▋▊▉█";

    private final Run run;
    private final Script script;
    private final Random random;
    private int totalSteps = 2000;
    private int step;
    private int barStart;
    private double barElapsed;
    private String desc = "";
    private boolean lossDicts = true;
    private boolean lossPostfix;
    private int loggingSteps = 10;
    private int lastLogged;
    private boolean printing = true;

    public TrainingLog(Run run, Script script) {
        this.run = run;
        this.script = script;
        this.random = run.random();
    }

    public TrainingLog totalSteps(int n) {
        totalSteps = n;
        return this;
    }

    /** The bar starts at {@code step} (a resume from a checkpoint), with elapsed time zero. */
    public TrainingLog resumeAt(int s) {
        step = s;
        barStart = 0;
        lastLogged = s;
        return this;
    }

    /** A diffusers-style bar ({@code Steps:  25%|...| ..., lr=1e-05, step_loss=0.137]}) instead of Trainer's. */
    public TrainingLog stepsBar() {
        desc = "Steps: ";
        lossDicts = false;
        lossPostfix = true;
        return this;
    }

    /** Whether this process prints (transformers prints on the main process only: rank 0). */
    public TrainingLog printing(boolean p) {
        printing = p;
        return this;
    }

    public int step() {
        return step;
    }

    public int totalSteps() {
        return totalSteps;
    }

    /** Trainer's header lines ({@code ***** Running training *****}). */
    public TrainingLog header(int examples, int batch) {
        if (!printing) {
            return this;
        }
        String t = PyFormat.loggingTime(run.timeAt(script.cursor()));
        script.errLines(List.of(
                "[INFO|trainer.py:2128] " + t + " >> ***** Running training *****",
                "[INFO|trainer.py:2129] " + t + " >>   Num examples = " + PyFormat.thousands(examples),
                "[INFO|trainer.py:2130] " + t + " >>   Num Epochs = 3",
                "[INFO|trainer.py:2131] " + t + " >>   Instantaneous batch size per device = 4",
                "[INFO|trainer.py:2132] " + t + " >>   Total train batch size (w. parallel, distributed & accumulation) = " + batch,
                "[INFO|trainer.py:2133] " + t + " >>   Gradient Accumulation steps = 4",
                "[INFO|trainer.py:2134] " + t + " >>   Total optimization steps = " + PyFormat.thousands(totalSteps),
                "[INFO|trainer.py:2135] " + t + " >>   Number of trainable parameters = 8,030,261,248"));
        return this;
    }

    /** Trainer's lines when it resumes ({@code Continuing training from global step N}). */
    public TrainingLog resumeLines() {
        if (!printing) {
            return this;
        }
        String t = PyFormat.loggingTime(run.timeAt(script.cursor()));
        script.errLines(List.of(
                "[INFO|trainer.py:2155] " + t + " >>   Continuing training from checkpoint, will skip to saved global_step",
                "[INFO|trainer.py:2156] " + t + " >>   Continuing training from epoch 1",
                "[INFO|trainer.py:2157] " + t + " >>   Continuing training from global step " + step,
                "[INFO|trainer.py:2159] " + t + " >>   Will skip the first 1 epochs then the first 1436 batches in the first epoch."));
        return this;
    }

    /**
     * Trains for {@code length} from the script's cursor at {@code secondsPerStep(offset)} (the real speed, which
     * may change over time), printing the bar every {@code every}; the cursor ends after it.
     */
    public TrainingLog train(Duration length, Duration every, DoubleUnaryOperator secondsPerStep) {
        Duration end = script.cursor().plus(length);
        double carry = 0;
        while (script.cursor().compareTo(end) < 0 && step < totalSteps) {
            Duration slice = every.compareTo(end.minus(script.cursor())) < 0 ? every : end.minus(script.cursor());
            double seconds = slice.toMillis() / 1000.0;
            double perStep = secondsPerStep.applyAsDouble(script.cursor().toMillis() / 1000.0);
            double steps = seconds / perStep * (0.97 + random.nextDouble() * 0.06) + carry;
            int whole = (int) steps;
            carry = steps - whole;
            step = Math.min(totalSteps, step + whole);
            barElapsed += seconds;
            script.after(slice);
            if (!printing) {
                continue;
            }
            if (lossDicts && step - lastLogged >= loggingSteps) {
                script.after(Duration.ofMillis(-200));
                script.err(lossDict());
                script.after(Duration.ofMillis(200));
                lastLogged = step;
            }
            script.err(bar());
        }
        return this;
    }

    /** Trainer's checkpoint lines. */
    public TrainingLog checkpoint(String dir) {
        if (!printing) {
            return this;
        }
        String t = PyFormat.loggingTime(run.timeAt(script.cursor()));
        String path = dir + "/checkpoint-" + step;
        script.errLines(List.of(
                "[INFO|trainer.py:3503] " + t + " >> Saving model checkpoint to " + path,
                "[INFO|configuration_utils.py:472] " + t + " >> Configuration saved in " + path + "/config.json",
                "[INFO|modeling_utils.py:2598] " + t + " >> Model weights saved in " + path + "/model.safetensors"));
        return this;
    }

    /** Trainer's closing lines. */
    public TrainingLog summary(Duration runtime) {
        if (!printing) {
            return this;
        }
        double secs = runtime.toMillis() / 1000.0;
        script.err(lossDict().replace("{'loss'", "{'train_runtime': " + PyFormat.round(secs, 4)
                + ", 'train_samples_per_second': " + PyFormat.round(step * 128 / Math.max(1, secs), 3)
                + ", 'train_steps_per_second': " + PyFormat.round(step / Math.max(1, secs), 3) + ", 'train_loss'"));
        script.err("[INFO|trainer.py:2406] " + PyFormat.loggingTime(run.timeAt(script.cursor()))
                + " >> Training completed. Do not forget to share your model on huggingface.co/models =)");
        return this;
    }

    /** The tqdm line for the current step. */
    String bar() {
        double frac = Math.min(1, step / (double) totalSteps);
        int shown = step - barStart;
        double rate = barElapsed > 0 ? shown / barElapsed : 0;
        String remaining = rate > 0 ? PyFormat.interval((totalSteps - step) / rate) : "?";
        String rateText = rate == 0 ? "?it/s" : rate >= 1 ? String.format(java.util.Locale.ROOT, "%5.2fit/s", rate)
                : String.format(java.util.Locale.ROOT, "%5.2fs/it", 1 / rate);
        String postfix = lossPostfix ? String.format(java.util.Locale.ROOT, ", lr=1e-05, step_loss=%.3f", loss() / 10) : "";
        return desc + String.format(java.util.Locale.ROOT, "%3.0f", Math.rint(frac * 100)) + "%|" + blocks(frac) + "| " + step + "/" + totalSteps
                + " [" + PyFormat.interval(barElapsed) + "<" + remaining + ", " + rateText + postfix + "]";
    }

    static String blocks(double frac) {
        int nsyms = BLOCKS.length() - 1;
        int units = (int) (frac * 10 * nsyms);
        int full = units / nsyms;
        StringBuilder b = new StringBuilder();
        b.append(String.valueOf(BLOCKS.charAt(nsyms)).repeat(Math.min(10, full)));
        if (full < 10) {
            b.append(BLOCKS.charAt(units % nsyms)).append(" ".repeat(10 - full - 1));
        }
        return b.toString();
    }

    private double loss() {
        double progress = step / (double) totalSteps;
        return 1.95 - 0.8 * progress + (random.nextDouble() - 0.5) * 0.08;
    }

    private String lossDict() {
        double epoch = 3.0 * step / totalSteps;
        return "{'loss': " + PyFormat.round(loss(), 4) + ", 'grad_norm': " + PyFormat.repr(0.3 + random.nextDouble() * 0.9)
                + ", 'learning_rate': " + PyFormat.repr(2e-5 * (1 - 0.9 * step / (double) totalSteps) + random.nextDouble() * 1e-9)
                + ", 'epoch': " + PyFormat.round(epoch, 2) + "}";
    }
}
