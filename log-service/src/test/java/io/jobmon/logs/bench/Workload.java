package io.jobmon.logs.bench;

import java.util.SplittableRandom;

/**
 * Realistic training output, deterministic per seed: step lines with loss and learning rate, tqdm progress bars,
 * NCCL INFO lines, JSON metric lines (HF Trainer), Python warnings, tracebacks now and then, a rare line the
 * search benchmark looks for, and now and then a line with a secret (masked at ingest).
 */
public final class Workload {

    /** Occurs in about one line in 2,000,000 (in well under 1 % of 1 MB chunks): the rare keyword of the search benchmark. */
    public static final String RARE = "ECC_UNCORRECTABLE_ERROR";
    /** Occurs in every step line: the frequent keyword. */
    public static final String FREQUENT = "loss";

    private static final String[] TRACEBACK = {
        "Traceback (most recent call last):",
        "  File \"/workspace/train.py\", line 412, in <module>",
        "    main()",
        "  File \"/workspace/train.py\", line 398, in main",
        "    trainer.train(resume_from_checkpoint=args.resume)",
        "  File \"/usr/local/lib/python3.10/dist-packages/transformers/trainer.py\", line 1859, in train",
        "    return inner_training_loop(",
        "  File \"/usr/local/lib/python3.10/dist-packages/torch/utils/data/dataloader.py\", line 633, in __next__",
        "    data = self._next_data()",
        "RuntimeError: DataLoader worker (pid 4242) is killed by signal: Bus error. It is possible that dataloader's"
                + " workers are out of shared memory.",
    };

    private final SplittableRandom random;
    private final int rank;
    private long step;
    private int traceback = -1;

    public Workload(long seed, int rank) {
        this.random = new SplittableRandom(seed);
        this.rank = rank;
    }

    public String next() {
        if (traceback >= 0) {
            String l = TRACEBACK[traceback++];
            if (traceback == TRACEBACK.length) {
                traceback = -1;
            }
            return l;
        }
        int r = random.nextInt(1000);
        step++;
        if (r < 450) {
            return String.format("[rank%d] epoch %d step %d/%d loss=%.4f lr=%.3e grad_norm=%.3f tokens/s=%d", rank,
                    step / 5000, step, 200_000, 2.5 / Math.log(step + 3.0) + random.nextDouble() * 0.05,
                    2e-5 * (1 - step / 400_000.0), 0.5 + random.nextDouble(), 3000 + random.nextInt(900));
        }
        if (r < 700) {
            int done = (int) (step % 1000);
            int pct = done / 10;
            return String.format("%3d%%|%s%s| %d/1000 [%02d:%02d<%02d:%02d, %.2fit/s]", pct, "█".repeat(pct / 10),
                    " ".repeat(10 - pct / 10), done, done / 60, done % 60, (1000 - done) / 60, (1000 - done) % 60,
                    1.5 + random.nextDouble());
        }
        if (r < 850) {
            return String.format("gpu-node-%02d:%d:%d [%d] NCCL INFO Channel %02d/%02d : %d[%d] -> %d[%d] via P2P/IPC/read",
                    rank % 16, 4000 + rank, 4100 + random.nextInt(50), rank % 8, random.nextInt(32), 32, rank,
                    rank % 8, (rank + 1) % 64, (rank + 1) % 8);
        }
        if (r < 950) {
            return String.format("{'loss': %.4f, 'grad_norm': %.4f, 'learning_rate': %.3e, 'epoch': %.2f, "
                    + "'num_input_tokens_seen': %d}", 1 + random.nextDouble(), random.nextDouble() * 3,
                    2e-5 * random.nextDouble(), step / 20000.0, step * 4096);
        }
        if (r < 990) {
            return "/usr/local/lib/python3.10/dist-packages/torch/utils/checkpoint.py:464: UserWarning: "
                    + "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly.";
        }
        if (r < 997) {
            traceback = 1;
            return TRACEBACK[0];
        }
        if (r < 999) {
            return "Downloading shards from https://hf-mirror.local/meta-llama/Llama-2-7b-hf with HF_TOKEN=hf_"
                    + Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong()) + "abcd";
        }
        if (random.nextInt(2000) == 0) {
            return "NVRM: GPU at PCI:0000:3b:00: GPU-6a3b2c1d reported " + RARE + " on SM " + random.nextInt(108);
        }
        return "Saving model checkpoint to /mnt/ckpt/llama-sft/checkpoint-" + step;
    }
}
