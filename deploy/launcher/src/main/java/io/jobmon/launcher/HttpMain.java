package io.jobmon.launcher;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What ./jobmon uses in place of curl on a machine without it.
 *
 * <ul>
 *   <li>{@code HttpMain status <url>}: prints the HTTP status code (000 when nothing answers).</li>
 *   <li>{@code HttpMain token <token-endpoint> <client-id> <user> <password>}: password grant, prints the access token.</li>
 * </ul>
 */
public final class HttpMain {

    private static final Pattern ACCESS_TOKEN = Pattern.compile("\"access_token\"\\s*:\\s*\"([^\"]+)\"");

    private HttpMain() {
    }

    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
        switch (args.length > 0 ? args[0] : "") {
            case "status" -> {
                try {
                    HttpResponse<Void> r = client.send(HttpRequest.newBuilder(URI.create(args[1]))
                            .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.discarding());
                    System.out.println(r.statusCode());
                } catch (java.io.IOException e) {
                    System.out.println("000");
                }
            }
            case "token" -> {
                String form = "grant_type=password&client_id=" + enc(args[2]) + "&username=" + enc(args[3])
                        + "&password=" + enc(args[4]);
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(args[1]))
                        .timeout(Duration.ofSeconds(10))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
                Matcher m = ACCESS_TOKEN.matcher(r.body());
                if (r.statusCode() != 200 || !m.find()) {
                    System.err.println("token request failed: HTTP " + r.statusCode() + " " + r.body());
                    System.exit(1);
                }
                System.out.println(m.group(1));
            }
            default -> {
                System.err.println("usage: HttpMain status <url> | token <endpoint> <client> <user> <password>");
                System.exit(2);
            }
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
