package io.jobmon.sim.control;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.Map;

/** A pod's resource requests and limits, summed over its containers, in canonical units. */
public final class PodResources {

    public static final String GPU = "nvidia.com/gpu";

    private PodResources() {
    }

    public static Admission.Usage usage(Pod p) {
        long cpu = 0;
        long mem = 0;
        long limCpu = 0;
        long limMem = 0;
        long gpus = 0;
        for (Container c : p.getSpec().getContainers()) {
            Map<String, Quantity> req = c.getResources() == null || c.getResources().getRequests() == null ? Map.of()
                    : c.getResources().getRequests();
            Map<String, Quantity> lim = c.getResources() == null || c.getResources().getLimits() == null ? Map.of()
                    : c.getResources().getLimits();
            cpu += millis(req.getOrDefault("cpu", lim.get("cpu")));
            mem += bytes(req.getOrDefault("memory", lim.get("memory")));
            limCpu += millis(lim.get("cpu"));
            limMem += bytes(lim.get("memory"));
            gpus += bytes(req.getOrDefault(GPU, lim.get(GPU)));
        }
        return new Admission.Usage(cpu, mem, limCpu, limMem, gpus);
    }

    public static int gpus(Pod p) {
        return (int) usage(p).gpus();
    }

    private static long millis(Quantity q) {
        return q == null ? 0 : Quantity.getAmountInBytes(q).multiply(BigDecimal.valueOf(1000)).longValue();
    }

    private static long bytes(Quantity q) {
        return q == null ? 0 : Quantity.getAmountInBytes(q).longValue();
    }
}
