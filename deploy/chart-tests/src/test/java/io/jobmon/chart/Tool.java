package io.jobmon.chart;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * promtool and amtool, from Debian's prometheus and prometheus-alertmanager packages (./jobmon test installs them).
 * A missing tool fails the test that needs it, saying how to get it: never a skip, never a silent pass.
 */
record Tool(String name, String debianPackage) {

    static final Tool PROMTOOL = new Tool("promtool", "prometheus");
    static final Tool AMTOOL = new Tool("amtool", "prometheus-alertmanager");

    record Run(int exitCode, String output) {
    }

    Path path() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return fail(name + " is not installed, so the monitoring configuration cannot be checked. Install Debian's "
                + debianPackage + " package (apt-get install -y " + debianPackage + "), or run ./jobmon test, which does.");
    }

    /** Runs the tool in a directory; the output is stdout and stderr together. */
    Run run(Path directory, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(path().toString());
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return fail(name + " " + String.join(" ", arguments) + " did not finish in 120 s");
        }
        return new Run(process.exitValue(), output);
    }
}
