package com.example.dashboard;

import io.jobguard.JobGuard;
import io.jobguard.JobOptions;
import io.jobguard.RunOutcome;
import io.jobguard.testing.RedisServerProcess;
import io.jobguard.testing.WithRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

/**
 * The dashboard page in a real headless Chromium (driven by Selenium through chromedriver) against two
 * application nodes on one real Redis running real guarded jobs, plus a third, secured node: the page of
 * node A lists both nodes and both jobs; every run shown on its timeline names the node that the job body,
 * writing to a ledger, says ran that fire time; each frequent job's row shows the node the fleet spread assigned it to
 * ("asks: node-b"), the node both engines name, and the job's later runs are that node's alone; pausing a job with the page's button (confirm dialog, CSRF
 * token sent back from the cookie) shows it paused on both nodes' pages; node B's read-only page has no
 * buttons; the nightly job's fire time that failed for good gets a Retry button, whose click runs attempt 2 of it on node
 * A (the ledger and the timeline say so); an anonymous caller of the secured node gets no data; after Redis loses its
 * data (FLUSHALL) the job shows
 * as "recovering from a data loss until T" while its fire times are refused, then idle with HISTORY_LOST marks. Outcomes
 * read as words ("ran on node-a", "skipped: already ran on node-b", "left to node-b", "skipped: the job was paused"), never as the
 * endpoint's constants, and a paused job's next fire time says "paused: will not run". The browser must be installed:
 * a missing chromium or chromedriver fails the test naming the Debian packages.
 * <p>
 * {@code -Ddashboard.screenshot=<file.png>} also saves the page of node A there (docs/operations.md's
 * picture); the screenshot is always saved under {@code target/}.
 */
@WithRedis
class DashboardBrowserIT {

    private static final Path CHROMIUM = Path.of(System.getProperty("chromium.path", "/usr/bin/chromium"));
    private static final Path CHROMEDRIVER = Path.of(System.getProperty("chromedriver.path", "/usr/bin/chromedriver"));
    private static final Set<String> RUN_OUTCOMES = Set.of("RAN", "FAILED", "CAUGHT_UP", "RETRIED", "STARTED");
    /**
     * An idle job's line for node A's last outcome: it ran the fire time, found it taken by another node, or left it to
     * the job's assigned node (the fleet spread).
     */
    private static final Pattern LAST_HERE = Pattern.compile(
            "here: (ran on node-a|skipped: already ran on (node-b|another node)"
                    + "|left to (node-b|its assigned node) \\(fleet spread: not asked here\\))");
    /** An outcome as the endpoint spells it: the page shows words instead. */
    private static final Pattern OUTCOME_CONSTANT = Pattern.compile(
            "\\b(RAN|FAILED|ALREADY_RAN|ASSIGNED_ELSEWHERE|BUSY|WAIT_TIMEOUT|STORE_ERROR|HISTORY_LOST|PAUSED|MISSED|CAUGHT_UP|RETRIED|ABANDONED)\\b");

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
    void pageShowsBothNodesTheLedgersRunsAndAPauseEverywhere(RedisServerProcess redis) throws Exception {
        ChromeDriver chrome = chromium();
        // its own namespace: this node only answers the anonymous caller, and a run of it cut short by its close
        // must not hold the two nodes' jobs below for its lease (an unfinished run's lease expires by its TTL)
        String secured = start(redis, "node-c", "app.security=basic", "jobguard.namespace=dashboard-it-secured");
        HttpResponse<String> anonymous = get(secured + "/actuator/jobguard");
        assertThat(anonymous.statusCode()).as("anonymous GET of the secured endpoint").isEqualTo(401);
        assertThat(anonymous.body()).doesNotContain("billing-sync");
        chrome.get(secured + "/actuator/jobguard/dashboard/index.html");
        assertThat(chrome.getPageSource()).as("the secured page, anonymously").doesNotContain("billing-sync")
                .doesNotContain("dashboard.js");
        apps.remove(0).close();

        String a = start(redis, "node-a", "app.security=open", "jobguard.actuator.write-role=");
        String b = start(redis, "node-b", "app.security=open", "management.endpoint.jobguard.access=read-only");
        await().atMost(Duration.ofSeconds(30)).until(() -> DashboardApplication.Jobs.ledger().stream()
                .filter(r -> r.job().equals("billing-sync")).map(DashboardApplication.Run::node)
                .collect(Collectors.toSet()).containsAll(Set.of("node-a", "node-b")));

        chrome.get(a + "/actuator/jobguard/dashboard/index.html?refresh=1");
        WebDriverWait wait = new WebDriverWait(chrome, Duration.ofSeconds(15));
        wait.ignoring(StaleElementReferenceException.class);
        wait.until(d -> d.findElements(By.cssSelector("#nodes tr[data-node='node-b']")).size() == 1
                && d.findElements(By.cssSelector("#jobs tr[data-job]")).size() == 3);
        assertThat(attributes(chrome, "#nodes tr[data-node]", "data-node")).contains("node-a", "node-b");
        assertThat(attributes(chrome, "#jobs tr[data-job]", "data-job"))
                .containsExactlyInAnyOrder("billing-sync", "invoice-export", "nightly-report");
        assertThat(rowText(chrome, "billing-sync")).contains("cron \"* * * * * *\"");
        // the fleet spread: both nodes agree on each job's assigned node, and node A's page shows it
        JobGuard spreadA = apps.get(0).getBean(JobGuard.class);
        JobGuard spreadB = apps.get(1).getBean(JobGuard.class);
        for (String job : List.of("billing-sync", "invoice-export")) {
            await().atMost(Duration.ofSeconds(10)).until(() -> spreadA.assignedNode(job).isPresent()
                    && spreadA.assignedNode(job).equals(spreadB.assignedNode(job)));
            String assigned = spreadA.assignedNode(job).orElseThrow();
            assertThat(assigned).isIn("node-a", "node-b");
            wait.until(d -> attributes(chrome, "#jobs tr[data-job='" + job + "'] td.assigned", "data-assigned-node")
                    .equals(List.of(assigned)));
            assertThat(rowText(chrome, job)).contains("asks: " + assigned);
            // the assigned node asks for every regular fire time: the job's next runs are in its ledger only
            Instant viewed = Instant.now().plusSeconds(1);
            await().atMost(Duration.ofSeconds(10)).until(() -> DashboardApplication.Jobs.ledger().stream()
                    .anyMatch(r -> r.job().equals(job) && r.nominalFireTime().isAfter(viewed)));
            assertThat(DashboardApplication.Jobs.ledger()).filteredOn(r -> r.job().equals(job)
                    && r.nominalFireTime().isAfter(viewed)).extracting(DashboardApplication.Run::node)
                    .as("runs of %s after both nodes saw it assigned to %s", job, assigned).containsOnly(assigned);
        }
        checkTimelineAgainstLedger(chrome, "billing-sync");
        checkTimelineAgainstLedger(chrome, "invoice-export");
        // node A's last outcome of the every-second job, in words: it ran it, or another node had
        wait.until(d -> LAST_HERE.matcher(String.valueOf(rowText(chrome, "billing-sync"))).find());
        assertThat(rowText(chrome, "billing-sync")).doesNotContainPattern(OUTCOME_CONSTANT);
        assertThat(chrome.findElement(By.id("legend")).getText()).contains("R ran", "P skipped: the job was paused",
                "M missed: no node started it", "H refused: Redis lost the job's history");

        assertThat(attributes(chrome, "#jobs tr[data-job='billing-sync'] button[data-action]", "data-action"))
                .containsExactly("pause", "resume", "run-now", "force-release");
        HttpResponse<String> noToken = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(a + "/actuator/jobguard/billing-sync")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"action\":\"pause\"}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(noToken.statusCode()).as("CSRF protection is on: a POST without the token is refused").isEqualTo(403);
        wait.until(d -> { // the rows are redrawn on every poll: find and click in one go, again if it went stale
            d.findElement(By.cssSelector("#jobs tr[data-job='billing-sync'] button[data-action='pause']")).click();
            return true;
        });
        wait.until(ExpectedConditions.alertIsPresent()).accept();
        wait.until(d -> d.findElement(By.id("answer")).getText().contains("HTTP 200"));
        assertThat(chrome.findElement(By.id("answer")).getText()).contains("paused cluster-wide");
        wait.until(d -> "paused".equals(state(chrome, "billing-sync")));
        assertThat(rowText(chrome, "billing-sync")).as("a paused job's next fire time").contains("paused: will not run");
        Instant pausedAt = Instant.now();
        // let a paused fire time or two reach the timeline for the picture, while both nodes refuse them
        await().atMost(Duration.ofSeconds(10)).until(() -> marks(chrome, "billing-sync").stream()
                .filter(m -> "PAUSED".equals(m.get("outcome"))).count() >= 2);
        assertThat(marks(chrome, "billing-sync")).filteredOn(m -> "PAUSED".equals(m.get("outcome")))
                .allSatisfy(m -> assertThat((String) m.get("title")).contains("skipped: the job was paused"));
        screenshot(chrome);

        // the nightly job's run of a fire time fails for good (no retries): the page offers to run it once more
        JobGuard guardA = apps.get(0).getBean(JobGuard.class);
        JobOptions nightly = JobOptions.builder("nightly-report", Duration.ofSeconds(30)).build();
        Instant failed = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        assertThatThrownBy(() -> guardA.run(nightly, failed, () -> {
            throw new IllegalStateException("the report's database is down");
        })).isInstanceOf(IllegalStateException.class);
        String retryButton = "#jobs tr[data-job='nightly-report'] button[data-action='retry']";
        wait.until(d -> d.findElements(By.cssSelector(retryButton)).size() == 1);
        assertThat(attributes(chrome, retryButton, "data-fire-time")).containsExactly(failed.toString());
        assertThat(marks(chrome, "nightly-report")).singleElement().satisfies(m -> {
            assertThat(m.get("outcome")).isEqualTo("FAILED");
            assertThat(m.get("attempt")).isEqualTo("1");
            assertThat((String) m.get("title")).contains("failed on node-a", "attempt 1");
        });
        assertThat(chrome.findElements(By.cssSelector("#jobs tr[data-job='billing-sync'] button[data-action='retry']")))
                .as("no failed fire time, no Retry button").isEmpty();
        wait.until(d -> {
            d.findElement(By.cssSelector(retryButton)).click();
            return true;
        });
        wait.until(ExpectedConditions.alertIsPresent()).accept();
        wait.until(d -> d.findElement(By.id("answer")).getText().contains("retry nightly-report: HTTP 200"));
        assertThat(chrome.findElement(By.id("answer")).getText()).contains("attempt 2 ran on this node");
        assertThat(DashboardApplication.Jobs.ledger()).as("the job's method ran the fire time again, on node A")
                .contains(new DashboardApplication.Run("nightly-report", "node-a", failed));
        wait.until(d -> marks(chrome, "nightly-report").size() == 3);
        assertThat(marks(chrome, "nightly-report")).extracting(m -> m.get("outcome") + " " + m.get("attempt"))
                .as("oldest first").containsExactly("FAILED 1", "RETRY_BY_HAND 1", "RAN 2");
        assertThat(marks(chrome, "nightly-report").get(2)).satisfies(m -> {
            assertThat((String) m.get("title")).contains("ran on node-a", "attempt 2");
            assertThat(m.get("letter")).isEqualTo("R2");
        });
        assertThat(chrome.findElements(By.cssSelector(retryButton))).as("it ran: nothing left to retry").isEmpty();

        chrome.get(b + "/actuator/jobguard/dashboard/index.html?refresh=1");
        wait.until(d -> d.findElements(By.cssSelector("#jobs tr[data-job]")).size() == 3);
        assertThat(state(chrome, "billing-sync")).as("node B's page shows the pause made on A").isEqualTo("paused");
        assertThat(rowText(chrome, "billing-sync")).contains("paused", "node node-a", "paused: will not run");
        assertThat(rowText(chrome, "invoice-export")).doesNotContain("will not run");
        assertThat(state(chrome, "invoice-export")).isNotEqualTo("paused");
        assertThat(chrome.findElements(By.cssSelector("button[data-action]"))).as("buttons on the read-only page").isEmpty();
        assertThat(chrome.findElement(By.id("actions-head")).isDisplayed()).isFalse();
        assertThat(DashboardApplication.Jobs.ledger()).as("no run of the paused job after the pause")
                .noneMatch(r -> r.job().equals("billing-sync") && r.nominalFireTime().isAfter(pausedAt.plusSeconds(1)));
        checkTimelineAgainstLedger(chrome, "invoice-export");

        // Redis loses everything: the jobs' next fire times are refused as HISTORY_LOST, and while node B refuses
        // them the page says until when. Node B once ran a fire time 5 s ahead, so the refusal lasts about 5 s.
        JobGuard guardB = apps.get(1).getBean(JobGuard.class);
        JobOptions export = JobOptions.builder("invoice-export", Duration.ofSeconds(10)).build();
        // the scheduled runs of the job hold its lease more than half the time: try again while one is BUSY
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> guardB.run(export, Instant.now().plusSeconds(5), () -> { }), outcome -> {
                    assertThat(outcome).isIn(RunOutcome.RAN, RunOutcome.BUSY);
                    return outcome == RunOutcome.RAN;
                });
        redis.flushAll();
        assertThat(guardB.run(export, Instant.now(), () -> { })).isEqualTo(RunOutcome.HISTORY_LOST);
        wait.until(d -> String.valueOf(rowText(chrome, "invoice-export")).contains("recovering from a data loss until "));
        assertThat(state(chrome, "invoice-export")).isEqualTo("recovering");
        wait.until(d -> marks(chrome, "billing-sync").stream().anyMatch(m -> "HISTORY_LOST".equals(m.get("outcome"))));
        // once the refusal has ended the page no longer says so, though the HISTORY_LOST marks stay
        wait.until(d -> "idle".equals(state(chrome, "invoice-export")));
        assertThat(marks(chrome, "invoice-export")).extracting(m -> m.get("outcome")).contains("HISTORY_LOST");
        assertThat(marks(chrome, "invoice-export")).filteredOn(m -> "HISTORY_LOST".equals(m.get("outcome")))
                .allSatisfy(m -> assertThat((String) m.get("title")).contains("refused: Redis lost the job's history"));
    }

    /** Every run mark of the job's timeline names the node the ledger says ran that fire time, and nothing is left out. */
    private static void checkTimelineAgainstLedger(ChromeDriver chrome, String job) {
        List<Map<String, Object>> marks = marks(chrome, job);
        Map<Instant, String> ledger = DashboardApplication.Jobs.ledger().stream().filter(r -> r.job().equals(job))
                .collect(Collectors.toMap(DashboardApplication.Run::nominalFireTime, DashboardApplication.Run::node));
        List<Map<String, Object>> runs = marks.stream().filter(m -> RUN_OUTCOMES.contains(m.get("outcome"))).toList();
        assertThat(runs).as("run marks of %s", job).isNotEmpty();
        for (Map<String, Object> mark : runs) {
            Instant fireTime = Instant.parse((String) mark.get("fireTime"));
            assertThat(mark.get("node")).as("node of %s at %s (ledger %s)", job, fireTime, ledger)
                    .isEqualTo(ledger.get(fireTime));
            assertThat(Long.parseLong((String) mark.get("token"))).isPositive();
            assertThat((String) mark.get("title")).contains("fencing token " + mark.get("token"), "start delay");
            if ("RAN".equals(mark.get("outcome"))) {
                assertThat((String) mark.get("title")).as("the outcome in words").contains("ran on " + ledger.get(fireTime));
            }
        }
        Instant oldest = runs.stream().map(m -> Instant.parse((String) m.get("fireTime"))).min(Instant::compareTo).orElseThrow();
        Instant newest = runs.stream().map(m -> Instant.parse((String) m.get("fireTime"))).max(Instant::compareTo).orElseThrow();
        Set<Instant> shown = marks.stream().map(m -> Instant.parse((String) m.get("fireTime"))).collect(Collectors.toSet());
        assertThat(ledger.keySet().stream().filter(t -> !t.isBefore(oldest) && !t.isAfter(newest)))
                .as("every ledger run of %s in the timeline's span has its mark", job).allMatch(shown::contains);
    }

    /** The timeline marks of a job as the browser rendered them (one script call, so one consistent snapshot). */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> marks(ChromeDriver chrome, String job) {
        return (List<Map<String, Object>>) ((JavascriptExecutor) chrome).executeScript(
                "return Array.from(document.querySelectorAll('#jobs tr[data-job=\"' + arguments[0] + '\"] g.fire'))"
                        + ".map(g => ({fireTime: g.getAttribute('data-fire-time'), node: g.getAttribute('data-node'),"
                        + " outcome: g.getAttribute('data-outcome'), token: g.getAttribute('data-token'),"
                        + " attempt: g.getAttribute('data-attempt'), letter: g.querySelector('text.letter').textContent,"
                        + " title: g.querySelector('title').textContent}));", job);
    }

    /** An attribute of every element the selector finds, read in one script call. */
    @SuppressWarnings("unchecked")
    private static List<String> attributes(ChromeDriver chrome, String selector, String attribute) {
        return (List<String>) ((JavascriptExecutor) chrome).executeScript("return Array.from(document.querySelectorAll("
                + "arguments[0])).map(e => e.getAttribute(arguments[1]));", selector, attribute);
    }

    /** The text of a job's row as rendered, read in one script call. */
    private static String rowText(ChromeDriver chrome, String job) {
        return (String) ((JavascriptExecutor) chrome).executeScript(
                "const row = document.querySelector('#jobs tr[data-job=\"' + arguments[0] + '\"]');"
                        + " return row ? row.innerText : null;", job);
    }

    /** The state a job's row shows, read in one script call (the page redraws its rows on every poll). */
    private static String state(ChromeDriver chrome, String job) {
        return (String) ((JavascriptExecutor) chrome).executeScript(
                "const row = document.querySelector('#jobs tr[data-job=\"' + arguments[0] + '\"]');"
                        + " return row ? row.getAttribute('data-state') : null;", job);
    }

    private static void screenshot(ChromeDriver chrome) throws IOException {
        chrome.manage().window().setSize(new org.openqa.selenium.Dimension(1400, 900));
        byte[] png = ((TakesScreenshot) chrome).getScreenshotAs(OutputType.BYTES);
        Files.createDirectories(Path.of("target"));
        Files.write(Path.of("target", "dashboard.png"), png);
        String wanted = System.getProperty("dashboard.screenshot");
        if (wanted != null && !wanted.isBlank()) {
            Path out = Path.of(wanted).toAbsolutePath();
            Files.createDirectories(out.getParent());
            Files.write(out, png);
            System.out.println("dashboard screenshot written to " + out);
        }
    }

    private ChromeDriver chromium() {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            fail("DashboardBrowserIT needs a real Chromium and its driver: " + CHROMIUM + " and " + CHROMEDRIVER
                    + " (Debian/Ubuntu: apt-get install -y chromium chromium-driver; .ci/run installs them when missing;"
                    + " other paths: -Dchromium.path=... -Dchromedriver.path=...)");
        }
        try {
            ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile());
            options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--window-size=1400,900",
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
        if (all.stream().noneMatch(p -> p.startsWith("jobguard.namespace="))) {
            all.add("jobguard.namespace=dashboard-it");
        }
        // as command-line arguments, so that they override application.properties (the example's localhost:6379)
        ConfigurableApplicationContext app = new SpringApplicationBuilder(DashboardApplication.class)
                .run(all.stream().map(p -> "--" + p).toArray(String[]::new));
        apps.add(app);
        return "http://127.0.0.1:" + ((WebServerApplicationContext) app).getWebServer().getPort();
    }

    private static HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
