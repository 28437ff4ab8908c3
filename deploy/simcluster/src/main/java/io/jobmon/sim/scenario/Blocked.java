package io.jobmon.sim.scenario;

/** Scenarios that never get to run: the image, a volume, the quota. */
final class Blocked {

    private Blocked() {
    }

    /** The image tag does not exist: Pulling, Failed (NotFound), ErrImagePull, BackOff, ImagePullBackOff, again. */
    static Script imagePull(Run r) {
        return new Script().pull(Script.Pull.NOT_FOUND);
    }

    /** An NFS volume cannot be mounted: FailedMount events, the container stays ContainerCreating. */
    static Script volumeMount(Run r) {
        return new Script().mountError("mount failed: exit status 32\nMounting command: mount\nMounting arguments: -t nfs "
                + "10.20.0.15:/export/datasets %TARGET%\nOutput: mount.nfs: Connection timed out");
    }
}
