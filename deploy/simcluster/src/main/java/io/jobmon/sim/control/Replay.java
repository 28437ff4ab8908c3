package io.jobmon.sim.control;

import io.fabric8.kubernetes.api.model.HasMetadata;

/** Objects a bundle replay created: the controllers, the scheduler and the kubelets leave them alone. */
public final class Replay {

    /** The annotation that marks them, its value the bundle's job id. */
    public static final String ANNOTATION = "sim.jobmon.io/replay";

    private Replay() {
    }

    public static boolean is(HasMetadata o) {
        return o.getMetadata().getAnnotations() != null && o.getMetadata().getAnnotations().containsKey(ANNOTATION);
    }
}
