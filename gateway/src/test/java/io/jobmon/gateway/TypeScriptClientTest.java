package io.jobmon.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A frontend team's first step works: a TypeScript client generated from the merged OpenAPI document
 * ({@code docs/openapi/jobmon.json}, kept equal to the gateway's by {@link MergedOpenApiTest}) with openapi-typescript
 * compiles under {@code tsc --strict}, together with code that builds the job-monitor table, a submission, the log
 * viewer, a chart and a problem from it ({@code src/test/ts/job-monitor.ts}). The script {@code src/test/ts/check-client.sh}
 * does it with the versions of its {@code package-lock.json}; it needs Node.js with npm, and the npm registry on the
 * first run (the packages are then in {@code target/npm-cache} of the repository). Without npm the test fails and
 * says so: it never passes silently.
 */
class TypeScriptClientTest {

    static final Path SCRIPT = Path.of("src", "test", "ts", "check-client.sh");

    @Test
    void aClientGeneratedFromTheMergedDocumentCompiles() throws Exception {
        Path doc = MergedOpenApiTest.MERGED.toAbsolutePath().normalize();
        assertTrue(Files.exists(doc), "no " + doc + ": run MergedOpenApiTest first");
        List<String> cmd = List.of("bash", SCRIPT.toString(), doc.toString());
        Path log = Path.of("target", "ts-client.log");
        Files.createDirectories(log.getParent());
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new AssertionError("bash cannot be run (" + e.getMessage() + ")", e);
        }
        boolean done = p.waitFor(15, TimeUnit.MINUTES);
        if (!done) {
            p.destroyForcibly();
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        if (!done) {
            throw new AssertionError(String.join(" ", cmd) + " did not finish in 15 minutes:\n" + out);
        }
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + " failed (it needs Node.js with npm, and the npm "
                + "registry until target/npm-cache holds the packages):\n" + out);
    }
}
