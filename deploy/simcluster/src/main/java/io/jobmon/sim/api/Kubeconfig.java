package io.jobmon.sim.api;

/** A kubeconfig with one cluster, user and context, the current one, for the sim's API server. */
public final class Kubeconfig {

    private Kubeconfig() {
    }

    /**
     * @param cluster the cluster and context name (e.g. {@code sim})
     * @param server the API server URL
     * @param namespace the context's default namespace
     */
    public static String yaml(String cluster, String server, String namespace) {
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: %1$s
                  cluster:
                    server: %2$s
                users:
                - name: %1$s-admin
                  user:
                    token: %1$s-token
                contexts:
                - name: %1$s
                  context:
                    cluster: %1$s
                    user: %1$s-admin
                    namespace: %3$s
                current-context: %1$s
                preferences: {}
                """.formatted(cluster, server, namespace);
    }
}
