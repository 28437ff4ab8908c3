package io.jobmon.sim.scenario;

import io.jobmon.sim.telemetry.GpuLoad;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Scenarios where the user's program fails: device memory, imports, data paths, its own bugs, its command. */
final class Crashes {

    private Crashes() {
    }

    /**
     * One rank runs out of device memory in backward (torch >= 2.4's OutOfMemoryError text), torchrun stops the
     * others and raises ChildFailedError; exit 1. Device memory sits near full before.
     */
    static Script cudaOom(Run r) {
        Script s = new Script();
        TrainingLog t = Common.start(r, s);
        s.load(GpuLoad.training(96, r.model().memoryMiB() - 1_200));
        t.train(Common.part(r, 0.4), Common.every(r), x -> Common.secondsPerStep(r));
        if (r.rank() != 0) {
            return s;
        }
        s.after(Duration.ofSeconds(45));
        int local = Common.failingLocalRank(r);
        int rank = local;
        double total = r.model().memoryMiB() / 1024.0 - 0.67;
        List<String> tb = new ArrayList<>(Common.trainerFrames("/workspace/src/train_sft.py"));
        tb.addAll(List.of(
                "  File \"/usr/local/lib/python3.10/dist-packages/accelerate/accelerator.py\", line 2196, in backward",
                "    loss.backward(**kwargs)",
                "  File \"/usr/local/lib/python3.10/dist-packages/torch/_tensor.py\", line 521, in backward",
                "    torch.autograd.backward(",
                "  File \"/usr/local/lib/python3.10/dist-packages/torch/autograd/__init__.py\", line 289, in backward",
                "    _engine_run_backward(",
                "  File \"/usr/local/lib/python3.10/dist-packages/torch/autograd/graph.py\", line 768, in _engine_run_backward",
                "    return Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass",
                String.format(java.util.Locale.ROOT, "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU %d has a total "
                        + "capacity of %.2f GiB of which 1.17 GiB is free. Including non-PyTorch memory, this process has "
                        + "%.2f GiB memory in use. Of the allocated memory %.2f GiB is allocated by PyTorch, and 2.86 GiB is "
                        + "reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting "
                        + "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for "
                        + "Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)",
                        local, total, total - 1.18, total - 4.72)));
        s.errLines(Torchrun.rankLines(rank, tb));
        s.after(Duration.ofSeconds(1));
        s.load(GpuLoad.IDLE);
        Torchrun.childFailed(s, r, "src/train_sft.py", local, 1);
        s.after(Duration.ofSeconds(1)).exit(1, "Error");
        return s;
    }

    /** Every rank fails at import: {@code ModuleNotFoundError: No module named 'flash_attn'}; exit 1 within seconds. */
    static Script missingModule(Run r) {
        Script s = new Script();
        s.step(new Step.HostMemory(3 * Common.GIB));
        s.after(Duration.ofSeconds(1));
        Torchrun.banner(s, r);
        s.after(Duration.ofSeconds(9));
        for (int local = 0; local < r.localRanks(); local++) {
            int rank = r.rank() * r.localRanks() + local;
            s.errLines(Torchrun.rankLines(rank, List.of(
                    "Traceback (most recent call last):",
                    "  File \"/workspace/FastChat/fastchat/train/train_mem.py\", line 3, in <module>",
                    "    from fastchat.train.llama2_flash_attn_monkey_patch import (",
                    "  File \"/workspace/FastChat/fastchat/train/llama2_flash_attn_monkey_patch.py\", line 5, in <module>",
                    "    from flash_attn import __version__ as flash_attn_version",
                    "ModuleNotFoundError: No module named 'flash_attn'")));
        }
        s.after(Duration.ofSeconds(1));
        Torchrun.childFailed(s, r, "fastchat/train/train_mem.py", 0, 1);
        s.after(Duration.ofSeconds(1)).exit(1, "Error");
        return s;
    }

    /** The training file does not exist on the mounted volume (datasets' resolve_pattern); exit 1. */
    static Script badDataPath(Run r) {
        Script s = new Script();
        s.step(new Step.HostMemory(4 * Common.GIB));
        s.after(Duration.ofSeconds(1));
        Torchrun.banner(s, r);
        s.after(Duration.ofSeconds(20));
        s.err("[INFO|tokenization_utils_base.py:2287] " + PyFormat.loggingTime(r.timeAt(s.cursor()))
                + " >> loading file tokenizer.model");
        s.after(Duration.ofSeconds(2));
        int rank = r.rank() * r.localRanks();
        s.errLines(Torchrun.rankLines(rank, List.of(
                "Traceback (most recent call last):",
                "  File \"/app/train.py\", line 96, in <module>",
                "    raw = load_dataset(\"json\", data_files={\"train\": args.train_file}, split=\"train\")",
                "  File \"/usr/local/lib/python3.10/dist-packages/datasets/load.py\", line 2594, in load_dataset",
                "    builder_instance = load_dataset_builder(",
                "  File \"/usr/local/lib/python3.10/dist-packages/datasets/load.py\", line 2266, in load_dataset_builder",
                "    dataset_module = dataset_module_factory(",
                "  File \"/usr/local/lib/python3.10/dist-packages/datasets/load.py\", line 1785, in dataset_module_factory",
                "    ).get_module()",
                "  File \"/usr/local/lib/python3.10/dist-packages/datasets/load.py\", line 1046, in get_module",
                "    data_files = DataFilesDict.from_patterns(",
                "  File \"/usr/local/lib/python3.10/dist-packages/datasets/data_files.py\", line 721, in from_patterns",
                "    else DataFilesList.from_patterns(",
                "  File \"/usr/local/lib/python3.10/dist-packages/datasets/data_files.py\", line 624, in from_patterns",
                "    resolve_pattern(",
                "  File \"/usr/local/lib/python3.10/dist-packages/datasets/data_files.py\", line 411, in resolve_pattern",
                "    raise FileNotFoundError(error_msg)",
                "FileNotFoundError: Unable to find '/mnt/data/sft/train_v3.jsonl'")));
        s.after(Duration.ofSeconds(2));
        Torchrun.childFailed(s, r, "/app/train.py", 0, 1);
        s.after(Duration.ofSeconds(1)).exit(1, "Error");
        return s;
    }

    /** A shape bug in the user's loss on one batch: RuntimeError from the user's code; exit 1. */
    static Script userError(Run r) {
        Script s = new Script();
        TrainingLog t = Common.start(r, s);
        t.train(Common.part(r, 0.3), Common.every(r), x -> Common.secondsPerStep(r));
        if (r.rank() != 0) {
            return s;
        }
        s.after(Duration.ofSeconds(30));
        List<String> tb = new ArrayList<>(List.of(
                "Traceback (most recent call last):",
                "  File \"/workspace/summarize/train.py\", line 188, in <module>",
                "    main()",
                "  File \"/workspace/summarize/train.py\", line 171, in main",
                "    loss = compute_loss(outputs.logits, batch[\"labels\"])",
                "  File \"/workspace/summarize/losses.py\", line 42, in compute_loss",
                "    return (per_token * mask).sum() / mask.sum()",
                "RuntimeError: The size of tensor a (4096) must match the size of tensor b (4097) at non-singleton dimension 1"));
        s.errLines(Torchrun.rankLines(0, tb));
        s.load(GpuLoad.IDLE);
        Torchrun.childFailed(s, r, "/workspace/summarize/train.py", 0, 1);
        s.after(Duration.ofSeconds(1)).exit(1, "Error");
        return s;
    }

    /** The command is not in the image: runc cannot exec it (StartError, exit 128). */
    static Script startCommand(Run r) {
        return new Script().startError("failed to create containerd task: failed to create shim task: OCI runtime "
                + "create failed: runc create failed: unable to start container process: exec: \"python\": executable "
                + "file not found in $PATH: unknown");
    }
}
