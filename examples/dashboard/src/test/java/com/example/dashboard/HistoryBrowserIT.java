package com.example.dashboard;

import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The dashboard's run history section in a real headless Chromium against a real application node on a real Redis:
 * it shows the newest page of a job's history, older pages by its cursor (each older than the one before), filters by
 * outcome (shown in words), and links CSV and NDJSON exports of the same filter; the history and its export are
 * refused to an anonymous caller of a secured node, like the endpoint's other reads. A screenshot goes to
 * {@code target/history.png}.
 */
@WithRedis
class HistoryBrowserIT {

    private static final Path CHROMIUM = Path.of(System.getProperty("chromium.path", "/usr/bin/chromium"));
    private static final Path CHROMEDRIVER = Path.of(System.getProperty("chromedriver.path", "/usr/bin/chromedriver"));

    private final List<ConfigurableApplicationContext> apps = new ArrayList<>();
    private ChromeDriver browser;

    @AfterEach
    void close() {
        if (browser != null) {
            browser.quit();
        }
        apps.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void pagesBackFiltersByOutcomeAndExportsWhileASecuredNodeRefusesAnonymousReads(RedisServerProcess redis)
            throws Exception {
        String secured = start(redis, "node-s", "app.security=basic", "jobguard.namespace=history-it-secured");
        String csvPath = "/actuator/jobguard/billing-sync/history/csv";
        assertThat(get(secured + csvPath, null).statusCode()).as("anonymous export").isEqualTo(401);
        assertThat(get(secured + "/actuator/jobguard/billing-sync/history/json", null).statusCode()).isEqualTo(401);
        HttpResponse<String> ops = get(secured + csvPath, "ops:ops-secret");
        assertThat(ops.statusCode()).as("the export for the ops user").isEqualTo(200);
        assertThat(ops.body()).startsWith("job,fireTime,outcome");
        apps.remove(0).close();

        // three days ago: 60 hourly fire times of the every-second job, every 5th failed, at the list's tail
        String key = "jobguard:{history-it:billing-sync}:history";
        long base = Instant.now().minus(Duration.ofDays(3)).toEpochMilli() / 3_600_000L * 3_600_000L;
        for (int i = 59; i >= 0; i--) {
            long t = base + i * 3_600_000L;
            String lease = "jg1|tok-" + i + "|" + t + "|" + (t + 15) + "|" + (1_000 + i) + "|node-old";
            redis.call("RPUSH", key, i % 5 == 0 ? "f1|FAILED|950|java.net.SocketTimeoutException|Read timed out|" + lease
                    : "o|RAN|420|" + lease);
        }
        String a = start(redis, "node-a", "app.security=open", "jobguard.namespace=history-it");
        ChromeDriver chrome = chromium();
        chrome.get(a + "/actuator/jobguard/dashboard/index.html?history=billing-sync");
        WebDriverWait wait = new WebDriverWait(chrome, Duration.ofSeconds(15));
        wait.until(d -> rows(chrome).size() == 25);
        assertThat(chrome.findElement(By.id("history-page")).getText()).isEqualTo("page 1");
        Instant newestOfPage = Instant.parse(rows(chrome).get(24));
        int page = 1;
        // to the last page: the oldest entry, three days ago
        while (chrome.findElement(By.id("history-older")).isEnabled()) {
            chrome.findElement(By.id("history-older")).click();
            int expected = ++page;
            wait.until(d -> d.findElement(By.id("history-page")).getText().equals("page " + expected));
            assertThat(Instant.parse(rows(chrome).get(0))).as("page %d starts older than page %d ended", page, page - 1)
                    .isBefore(newestOfPage);
            newestOfPage = Instant.parse(rows(chrome).get(rows(chrome).size() - 1));
        }
        assertThat(page).as("60 old entries and the new ones fill three pages of 25 at least").isGreaterThanOrEqualTo(3);
        assertThat(rows(chrome).get(rows(chrome).size() - 1)).isEqualTo(Instant.ofEpochMilli(base).toString());
        chrome.findElement(By.id("history-newer")).click();
        int back = page - 1;
        wait.until(d -> d.findElement(By.id("history-page")).getText().equals("page " + back));

        new Select(chrome.findElement(By.id("history-outcome"))).selectByValue("FAILED");
        wait.until(d -> rows(chrome).size() == 12);
        assertThat(chrome.findElement(By.id("history-table")).getText()).contains("failed (the job threw)",
                "java.net.SocketTimeoutException: Read timed out").doesNotContain("FAILED");
        assertThat(chrome.findElement(By.id("history-older")).isEnabled()).isFalse();
        String csvLink = chrome.findElement(By.id("history-csv")).getAttribute("href");
        assertThat(csvLink).endsWith("/actuator/jobguard/billing-sync/history/csv?outcome=FAILED");
        assertThat(get(csvLink, null).body().lines()).hasSize(13);
        assertThat(chrome.findElement(By.id("history-ndjson")).getAttribute("href"))
                .endsWith("/history/ndjson?outcome=FAILED");
        screenshot(chrome);
    }

    /** The fire times of the history table's rows, as rendered. */
    @SuppressWarnings("unchecked")
    private static List<String> rows(ChromeDriver chrome) {
        return (List<String>) ((JavascriptExecutor) chrome).executeScript("return Array.from(document.querySelectorAll("
                + "'#history-table tbody tr[data-fire-time]')).map(r => r.getAttribute('data-fire-time'));");
    }

    private static void screenshot(ChromeDriver chrome) throws IOException {
        byte[] png = ((TakesScreenshot) chrome).getScreenshotAs(OutputType.BYTES);
        Files.createDirectories(Path.of("target"));
        Files.write(Path.of("target", "history.png"), png);
    }

    private ChromeDriver chromium() {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            fail("HistoryBrowserIT needs a real Chromium and its driver: " + CHROMIUM + " and " + CHROMEDRIVER
                    + " (Debian/Ubuntu: apt-get install -y chromium chromium-driver)");
        }
        try {
            ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile());
            options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--window-size=1400,1400",
                    "--user-data-dir=" + Files.createTempDirectory("jobguard-chromium").toAbsolutePath());
            ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                    .usingAnyFreePort().build();
            browser = new ChromeDriver(service, options);
            return browser;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private String start(RedisServerProcess redis, String node, String... props) {
        List<String> all = new ArrayList<>(List.of(
                "spring.data.redis.host=" + redis.host(),
                "spring.data.redis.port=" + redis.port(),
                "server.port=0",
                "server.address=127.0.0.1",
                "jobguard.node-id=" + node,
                "spring.main.banner-mode=off",
                "logging.level.root=WARN"));
        all.addAll(List.of(props));
        ConfigurableApplicationContext app = new SpringApplicationBuilder(DashboardApplication.class)
                .run(all.stream().map(p -> "--" + p).toArray(String[]::new));
        apps.add(app);
        return "http://127.0.0.1:" + ((WebServerApplicationContext) app).getWebServer().getPort();
    }

    private static HttpResponse<String> get(String url, String basic) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).GET();
        if (basic != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder()
                    .encodeToString(basic.getBytes(StandardCharsets.UTF_8)));
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
