package io.jobmon.diagnosis.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The progress-line formats real frameworks print. */
class ProgressParserTest {

    private static final Instant T = Instant.parse("2026-07-13T10:00:00Z");

    private static ProgressPoint parse(String line) {
        return ProgressParser.parseLine(line, T, "w-0", 0);
    }

    @Test
    void tqdmItPerSecond() {
        ProgressPoint p = parse(" 45%|████▌     | 4500/10000 [1:02:11<1:15:59, 1.21it/s]");
        assertEquals(4500, p.step());
        assertEquals(10000, p.total());
        assertEquals(3731, p.elapsed());
        assertEquals(1.21, p.printedRate(), 1e-9);
        assertTrue(p.training());
    }

    @Test
    void tqdmSecondsPerIterationWithPostfixAndLabel() {
        ProgressPoint p = parse("Steps:  25%|██▌       | 10253/40000 [1:29:01<4:18:15,  6.74s/it, lr=1e-05, step_loss=0.137]");
        assertEquals(10253, p.step());
        assertEquals(1 / 6.74, p.printedRate(), 1e-9);
        assertTrue(p.series().contains("Steps:"));
    }

    @Test
    void datasetBarsAreActivityButNotTrainingSpeed() {
        ProgressPoint p = parse("Map (num_proc=64):  11%|█         | 132367/1203344 [01:00<08:05, 2206.12 examples/s]");
        assertNotNull(p);
        assertFalse(p.training());
    }

    @Test
    void carriageReturnSeparatedUpdatesUseTheLastOne() {
        var logs = java.util.List.of(new EvidenceBundle.LogLine(T, "w-0", "c", "user",
                " 1%|          | 10/1000 [00:10<16:30, 1.00it/s]\r 2%|          | 20/1000 [00:20<16:20, 1.00it/s]"));
        assertEquals(20, ProgressParser.parse(logs).get(0).step());
    }

    @Test
    void huggingFaceLossDictIsLiveness() {
        ProgressPoint p = parse("{'loss': 1.883, 'grad_norm': 0.37, 'learning_rate': 1.99e-05, 'epoch': 0.04}");
        assertTrue(p.liveness());
        assertTrue(Double.isNaN(p.step()));
    }

    @Test
    void deepSpeedSteps() {
        assertEquals(5210, parse("[2026-08-04 22:16:17,000] [INFO] [logging.py:128:log_dist] [Rank 0] step=5210, skipped=0, lr=[2.87e-05]").step());
        assertEquals(5210, parse("[INFO] [timer.py:264:stop] epoch=0/micro_step=41680/global_step=5210, RunningAvgSamplesPerSec=41.62").step());
    }

    @Test
    void megatronIterations() {
        ProgressPoint p = parse(" [2026-07-13 10:00:00] iteration      100/    1000 | consumed samples:        12800 | "
                + "elapsed time per iteration (ms): 184000.5 | learning rate: 3.0E-04 | global batch size:   128 | lm loss: 2.1E+00 |");
        assertEquals(100, p.step());
        assertEquals(1000, p.total());
        assertEquals(184.0005, p.iterSeconds(), 1e-6);
    }

    @Test
    void llamaFactoryTrainerLog() {
        ProgressPoint p = parse("{\"current_steps\": 120, \"total_steps\": 3000, \"loss\": 1.2, \"lr\": 5e-05, "
                + "\"epoch\": 0.12, \"percentage\": 4.0, \"elapsed_time\": \"0:10:00\", \"remaining_time\": \"4:00:00\"}");
        assertEquals(120, p.step());
        assertEquals(600, p.elapsed());
    }

    @Test
    void torchvisionIterationWithDataTime() {
        ProgressPoint p = parse("Epoch: [3]  [18420/40037]  eta: 11:02:41  lr: 0.000387  loss: 4.0140 (4.0200)  time: 1.8293  data: 1.5193  max mem: 21873");
        assertEquals(3 * 40037 + 18420, p.step());
        assertEquals(1.8293, p.iterSeconds(), 1e-9);
        assertEquals(1.5193, p.dataSeconds(), 1e-9);
    }

    @Test
    void genericStepLossLine() {
        assertEquals(300, parse("step 300/5000 | loss 2.13 | lr 1e-4").step());
    }

    @Test
    void ordinaryLinesAreNotProgress() {
        assertNull(parse("[INFO|trainer.py:2134] 2026-07-13 09:48:43,512 >>   Total optimization steps = 2,262"));
        assertNull(parse("Saving model checkpoint to /output/checkpoint-500"));
        assertNull(parse("W0713 09:48:03.000000 88 torch/distributed/run.py:793] *****"));
    }

    @Test
    void errorLinesAreNeverProgress() {
        assertNull(parse("KeyError: 'loss'"));
        assertNull(parse("RuntimeError: Expected loss to be finite at step 300"));
        assertNull(parse("[rank0]: ValueError: step 12/100 produced NaN loss"));
    }
}
