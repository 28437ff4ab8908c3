package io.jobmon.diagnosis.engine;

import java.time.Instant;

/**
 * One progress observation parsed from a log line. Unknown numbers are {@code NaN}.
 *
 * @param time        log time of the line (may be null)
 * @param pod         pod that printed it
 * @param series      series key: pod, format, label and total, so bars of different loops stay apart
 * @param step        step counter (NaN for liveness-only lines)
 * @param total       total steps, or NaN
 * @param elapsed     elapsed seconds printed by the bar (tqdm, LLaMA-Factory), or NaN
 * @param iterSeconds per-iteration time printed by the framework (Megatron, torchvision), or NaN
 * @param dataSeconds data-loading time per iteration, or NaN
 * @param printedRate the rate the line itself printed in steps/s (tqdm's average), or NaN
 * @param training    {@code false} for dataset/download bars that are activity but not training speed
 * @param liveness    {@code true} for loss-dict lines that show activity but carry no step counter
 * @param logIndex    index of the line in the bundle's logs
 */
record ProgressPoint(Instant time, String pod, String series, double step, double total, double elapsed,
                     double iterSeconds, double dataSeconds, double printedRate, boolean training,
                     boolean liveness, int logIndex) {
}
