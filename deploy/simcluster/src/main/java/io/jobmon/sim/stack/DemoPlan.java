package io.jobmon.sim.stack;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code ./jobmon demo} submits: three waves of jobs by alice, bob (project-nlp) and carol (project-cv) on the sim
 * cluster, so that the console shows every state — most run; some queue on GPUs ({@code mixtral-8x7b-sft} needs four
 * whole 8-GPU nodes, later waves find the 48 GPUs taken) or on quota; several fail in different ways; a hang is
 * stopped; healthy ones succeed; one is shared.
 */
final class DemoPlan {

    /** What happens to a job after its submission. */
    enum Then {
        NOTHING, STOP_WHEN_RUNNING, SHARE_WITH_CAROL
    }

    /**
     * One job.
     *
     * @param scenario the sim scenario (label {@code jobmon.io/sim-scenario}), null for a healthy run
     */
    record DemoJob(int wave, String user, String project, String name, String scenario, int replicas, int gpus,
            String gpuType, String queue, List<String> tags, Then then) {

        /** The job spec as the API takes it. */
        Map<String, Object> spec(String cluster) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("name", name);
            s.put("project", project);
            s.put("cluster", cluster);
            s.put("queue", queue);
            s.put("image", "registry.local/" + project + "/trainer:24.05");
            s.put("command", List.of("torchrun", "--nproc-per-node=" + gpus, "train.py"));
            s.put("replicas", replicas);
            s.put("resources", Map.of("gpuType", gpuType, "gpusPerReplica", gpus));
            s.put("tags", tags);
            if (scenario != null) {
                s.put("labels", Map.of("jobmon.io/sim-scenario", scenario));
            }
            return s;
        }
    }

    private DemoPlan() {
    }

    private static DemoJob j(int wave, String user, String name, String scenario, int replicas, int gpus, String type,
            String... tags) {
        return j(wave, user, name, scenario, replicas, gpus, type, Then.NOTHING, tags);
    }

    private static DemoJob j(int wave, String user, String name, String scenario, int replicas, int gpus, String type,
            Then then, String... tags) {
        String project = "carol".equals(user) ? "project-cv" : "project-nlp";
        String queue = "carol".equals(user) ? "cv-train" : "nlp-train";
        return new DemoJob(wave, user, project, name, scenario, replicas, gpus, type, queue, List.of(tags), then);
    }

    /** The plan, in submission order. */
    static List<DemoJob> jobs() {
        return List.of(
                // wave 0: quick failures and the big runs that take most GPUs
                j(0, "alice", "llama3-8b-sft", null, 1, 8, "A800", Then.SHARE_WITH_CAROL, "sft", "llama3"),
                j(0, "alice", "tokenizer-ablation", "missing-module", 1, 1, "A800", "ablation"),
                j(0, "bob", "sft-data-v3", "bad-data-path", 1, 2, "A800", "sft"),
                j(0, "bob", "qwen-14b-pretrain", "nccl-timeout", 2, 4, "H100", "pretrain"),
                j(0, "carol", "vit-l-imagenet", "dataloader-slow", 1, 2, "A800", "vit"),
                j(0, "alice", "eval-harness", "hang", 1, 1, "A800", Then.STOP_WHEN_RUNNING, "eval"),
                j(0, "bob", "rlhf-reward-model", "quota", 1, 4, "A800", "rlhf"),
                j(0, "carol", "detr-r50", "image-pull", 1, 2, "A800", "detection"),
                j(0, "alice", "mixtral-8x7b-sft", null, 4, 8, "A800", "sft", "queued"),
                // wave 1: runs that fail later, and the rest of the healthy ones
                j(1, "alice", "vicuna-7b-ft", "oom", 1, 2, "A800", "sft"),
                j(1, "bob", "llama2-13b-lora", "cuda-oom", 1, 4, "H100", "lora"),
                j(1, "carol", "sdxl-finetune", "throttling", 1, 2, "H100", "diffusion"),
                j(1, "bob", "gpt-neox-20b", "xid-79", 1, 2, "H100", "pretrain"),
                j(1, "alice", "bert-large-mlm", "resume-trap", 1, 2, "A800", "mlm"),
                j(1, "carol", "yolov8-coco", null, 1, 2, "A800", "detection"),
                j(1, "bob", "t5-xl-summarize", "ecc", 1, 2, "A800", "t5"),
                j(1, "carol", "segformer-ade", "user-error", 1, 1, "A800", "segmentation"),
                j(1, "alice", "phi-2-distill", null, 1, 1, "A800", "distill"),
                j(1, "bob", "baichuan-7b-sft", "slowdown", 1, 2, "A800", "sft"),
                // wave 2: disruptions, start failures, and work that waits for GPUs
                j(2, "carol", "clip-vit-b16", "evicted", 1, 2, "A800", "clip"),
                j(2, "bob", "chatglm3-6b-ft", "preempted", 1, 2, "A800", "sft"),
                j(2, "alice", "deepseek-7b-math", "node-lost", 2, 2, "A800", "math"),
                j(2, "carol", "mae-vit-h", "start-command", 1, 1, "A800", "mae"),
                j(2, "bob", "internlm-20b", "volume-mount", 1, 2, "A800", "sft"),
                j(2, "carol", "convnext-xl", "unknown", 1, 2, "A800", "convnext"),
                j(2, "alice", "llama3-70b-pretrain", null, 2, 8, "H100", "pretrain", "queued"),
                j(2, "carol", "swin-b-finetune", null, 1, 1, "A800", "swin"),
                j(2, "bob", "qwen-1.8b-chat", null, 1, 1, "A800", "chat"));
    }
}
