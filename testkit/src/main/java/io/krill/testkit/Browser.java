package io.krill.testkit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A headless Chromium session for tests that check what a person sees: Debian's {@code chromium}
 * driven by Debian's {@code chromedriver} through Selenium, both installed on demand by
 * {@link TestTools#require} and both named explicitly, so Selenium looks nothing up online.
 *
 * <pre>{@code
 * try (Browser browser = Browser.start("--window-size=1280,1500")) {
 *   WebDriver d = browser.driver();
 *   d.get(url);
 * }
 * }</pre>
 *
 * <p>A test module that uses it declares Selenium's Chrome driver at test scope (this module
 * declares it optional, so nothing else gets it). Threading: one session per test thread, as
 * with any {@link WebDriver}.
 */
public final class Browser implements AutoCloseable {
  /**
   * The flags every session gets: as root Chromium starts only without its sandbox; no GPU and
   * no /dev/shm in containers cost nothing headless; its D-Bus complaints are noise.
   */
  public static final List<String> FLAGS = List.of("--no-sandbox", "--headless=new", "--disable-gpu",
      "--disable-dev-shm-usage", "--log-level=3");

  private final WebDriver driver;

  private Browser(WebDriver driver) {
    this.driver = driver;
  }

  /**
   * Starts a headless Chromium session, installing the browser and its driver first if missing.
   *
   * @param arguments Chromium flags beyond {@link #FLAGS}, e.g. {@code --window-size=1280,1500}
   * @return the session; close it to end the browser and its driver
   * @throws AssertionError if the browser or its driver cannot be installed
   */
  public static Browser start(String... arguments) {
    Path chromium = TestTools.require("chromium");
    Path chromedriver = TestTools.require("chromedriver");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium.toFile());
    List<String> flags = new ArrayList<>(FLAGS);
    flags.addAll(List.of(arguments));
    options.addArguments(flags);
    ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(chromedriver.toFile())
        .usingAnyFreePort().build();
    return new Browser(new ChromeDriver(service, options));
  }

  /** @return the session's driver */
  public WebDriver driver() {
    return driver;
  }

  /** Ends the browser and its driver. */
  @Override
  public void close() {
    driver.quit();
  }
}
