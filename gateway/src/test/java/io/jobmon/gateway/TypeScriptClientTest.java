package io.jobmon.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A frontend team's first step works: a TypeScript client generated from the merged OpenAPI document
 * ({@code docs/openapi/jobmon.json}, kept equal to the gateway's by {@link MergedOpenApiTest}) with openapi-typescript
 * compiles under {@code tsc --strict}, together with code that builds the job-monitor table, a submission and a
 * problem from it. Needs Node.js and the npm registry (the packages are installed under
 * {@code target/ts-client}); without npm the test fails and says so — it never passes silently.
 */
class TypeScriptClientTest {

    static final String OPENAPI_TYPESCRIPT = "7.13.0";
    static final String TYPESCRIPT = "5.9.3";
    static final Path DIR = Path.of("target", "ts-client");

    @Test
    void aClientGeneratedFromTheMergedDocumentCompiles() throws Exception {
        Path doc = MergedOpenApiTest.MERGED.toAbsolutePath().normalize();
        assertTrue(Files.exists(doc), "no " + doc + ": run MergedOpenApiTest first");
        Files.createDirectories(DIR);
        Files.writeString(DIR.resolve("package.json"), """
                {"name": "jobmon-client-check", "private": true,
                 "devDependencies": {"openapi-typescript": "%s", "typescript": "%s"}}
                """.formatted(OPENAPI_TYPESCRIPT, TYPESCRIPT));
        run(List.of("npm", "install", "--no-audit", "--no-fund", "--loglevel=error"), 600);
        run(List.of(bin("openapi-typescript"), doc.toString(), "-o", "schema.d.ts"), 120);
        Files.copy(TypeScriptClientTest.class.getResourceAsStream("/ts/job-monitor.ts"), DIR.resolve("job-monitor.ts"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        run(List.of(bin("tsc"), "--noEmit", "--strict", "--target", "es2020", "--module", "es2020",
                "--moduleResolution", "node", "job-monitor.ts"), 180);
    }

    private static String bin(String tool) {
        return DIR.toAbsolutePath().resolve("node_modules").resolve(".bin").resolve(tool).toString();
    }

    private static void run(List<String> command, int seconds) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(command);
        Process p;
        try {
            p = new ProcessBuilder(cmd).directory(DIR.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError(cmd.get(0) + " cannot be run (" + e.getMessage() + "): this test needs Node.js "
                    + "with npm on the PATH and the npm registry (https://registry.npmjs.org) reachable", e);
        }
        boolean done = p.waitFor(seconds, TimeUnit.SECONDS);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!done) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", cmd) + " did not finish in " + seconds + " s:\n" + out);
        }
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + " failed:\n" + out);
    }
}
