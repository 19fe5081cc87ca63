package io.periscope.web;

import static org.junit.Assert.assertTrue;

import io.periscope.testing.NeedsBrowser;
import io.periscope.testing.NoServices;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The distribution's Chromium, headless, driven through its chromedriver (no browser or driver is
 * ever downloaded), with axe-core from its WebJar for accessibility checks. CHROME_BIN and
 * CHROMEDRIVER name others, as scripts/test.sh reads them.
 */
final class Browser implements AutoCloseable {
  static final Path CHROMIUM = installed("CHROME_BIN", "/usr/bin/chromium");
  static final Path CHROMEDRIVER = installed("CHROMEDRIVER", "/usr/bin/chromedriver");
  private static final String AXE = "META-INF/resources/webjars/axe-core/4.6.3/axe.min.js";

  final ChromeDriver driver;
  private final String base;

  Browser(String base) {
    if (Boolean.getBoolean(NoServices.PROPERTY))
      throw new AssertionError(NoServices.refusal("Chromium", NeedsBrowser.class));
    assertTrue(
        "browser tests need Chromium and its driver at "
            + CHROMIUM
            + " and "
            + CHROMEDRIVER
            + ": scripts/test.sh installs them where it can and says what to install otherwise",
        Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER));
    this.base = base;
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900");
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, java.util.logging.Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(CHROMEDRIVER.toFile())
            .usingAnyFreePort()
            .build();
    driver = new ChromeDriver(service, options);
    driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
  }

  private static Path installed(String variable, String distributions) {
    String named = System.getenv(variable);
    return Path.of(named == null || named.isBlank() ? distributions : named);
  }

  void open(String path) {
    driver.get(base + path);
  }

  String path() {
    return java.net.URI.create(driver.getCurrentUrl()).getPath();
  }

  WebElement waitFor(By by) {
    return new WebDriverWait(driver, Duration.ofSeconds(20))
        .until(ExpectedConditions.visibilityOfElementLocated(by));
  }

  void waitUntil(java.util.function.Function<WebDriver, Boolean> condition) {
    new WebDriverWait(driver, Duration.ofSeconds(30)).until(condition::apply);
  }

  /** The control whose accessible label is {@code label}, as a person finds it. */
  WebElement field(String label) {
    WebElement l = waitFor(By.xpath("//label[normalize-space(.)='" + label + "']"));
    return driver.findElement(By.id(l.getAttribute("for")));
  }

  WebElement button(String text) {
    return waitFor(By.xpath("//button[normalize-space(.)='" + text + "']"));
  }

  WebElement link(String text) {
    return waitFor(By.xpath("//a[normalize-space(.)='" + text + "']"));
  }

  WebElement heading(String text) {
    return waitFor(By.xpath("//h1[normalize-space(.)='" + text + "']"));
  }

  void type(String label, String text) {
    WebElement f = field(label);
    // as a person replaces a value: clear() alone fires no input event
    f.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
    f.sendKeys(text);
  }

  void width(int px) {
    driver.manage().window().setSize(new Dimension(px, 900));
  }

  /**
   * The serious and critical violations axe-core finds on the page as it is now, with its rules on
   * by default and label-content-name-mismatch (WCAG 2.5.3: a control's name holds its visible
   * words), which axe-core leaves off as experimental.
   */
  List<String> accessibilityViolations() {
    JavascriptExecutor js = driver;
    if (!Boolean.TRUE.equals(js.executeScript("return typeof window.axe === 'object'")))
      js.executeScript(axeSource());
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> violations =
        (List<Map<String, Object>>)
            js.executeAsyncScript(
                "const done = arguments[arguments.length - 1];axe.run(document, {rules:"
                    + " {'label-content-name-mismatch': {enabled: true}}}).then(r =>"
                    + " done(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
                    + " nodes: v.nodes.map(n => n.target.join(' '))}))), e => done([{id:"
                    + " 'axe-error', impact: 'critical', help: String(e)}]));");
    List<String> serious = new ArrayList<>();
    for (Map<String, Object> v : violations) {
      if ("serious".equals(v.get("impact")) || "critical".equals(v.get("impact")))
        serious.add(v.get("id") + " (" + v.get("help") + "): " + v.get("nodes"));
    }
    return serious;
  }

  void assertAccessible(String page) {
    List<String> found = accessibilityViolations();
    assertTrue(page + ": " + found, found.isEmpty());
  }

  /**
   * Errors the page logged (a CSP refusal, an exception), which no page should have; a refusal of
   * the service that the page shows (Chromium logs each) is not one.
   */
  List<String> consoleErrors() {
    List<String> errors = new ArrayList<>();
    for (LogEntry e : driver.manage().logs().get(LogType.BROWSER)) {
      if (e.getLevel().intValue() >= java.util.logging.Level.SEVERE.intValue()
          && !e.getMessage().contains("Failed to load resource: the server responded"))
        errors.add(e.getMessage());
    }
    return errors;
  }

  /**
   * A screenshot named {@code name}.png, under PERISCOPE_SCREENSHOTS (docs/web.md), in at most 256
   * colours so that the ones kept in docs/ stay small.
   */
  void screenshot(String name) {
    Path folder =
        Path.of(System.getenv().getOrDefault("PERISCOPE_SCREENSHOTS", "target/screenshots"));
    try {
      Files.createDirectories(folder);
      BufferedImage shot =
          ImageIO.read(new ByteArrayInputStream(driver.getScreenshotAs(OutputType.BYTES)));
      ImageIO.write(Palette.of(shot), "png", folder.resolve(name + ".png").toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String axeSource() {
    try (InputStream in = Browser.class.getClassLoader().getResourceAsStream(AXE)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    driver.quit();
  }
}
