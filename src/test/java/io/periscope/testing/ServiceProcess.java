package io.periscope.testing;

import io.periscope.json.Json;
import java.io.IOException;
import java.net.ServerSocket;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * target/periscope.jar (or another release's jar) started as an operator would: its own JVM,
 * configured by environment variables.
 */
public final class ServiceProcess implements AutoCloseable {
  /** The jar this build made. */
  public static final Path JAR = Path.of("target", "periscope.jar");

  private final Map<String, String> env;
  private final Path log;
  private final Path jar;
  private final int port;
  private Process process;

  /** {@code env} may fix the HTTP port with PORT; a free one is taken otherwise. */
  public ServiceProcess(Map<String, String> env, Path log) throws IOException {
    this(env, log, JAR);
  }

  /** The same, of {@code jar}. */
  public ServiceProcess(Map<String, String> env, Path log, Path jar) throws IOException {
    this.jar = jar;
    this.port = env.containsKey("PORT") ? Integer.parseInt(env.get("PORT")) : freePort();
    this.env = new HashMap<>(env);
    this.env.put("PORT", Integer.toString(port));
    this.env.putIfAbsent(
        "REMOTE_PORT", "0"); // the PostgreSQL profile's fixed 17355 may be taken on a test machine
    this.log = log;
  }

  public int port() {
    return port;
  }

  public URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  /** Starts the service and waits until /health answers. */
  public ServiceProcess start() throws Exception {
    launch();
    return awaitOk(uri("/health"), Duration.ofSeconds(180));
  }

  /**
   * Starts the service (again, after a stop or a kill, with the same environment) without waiting
   * for it.
   */
  public ServiceProcess launch() throws IOException {
    process = java(List.of("serve"), null, ProcessBuilder.Redirect.appendTo(log.toFile()));
    return this;
  }

  /**
   * Waits until {@code url} answers 200, such as a node's /ready; fails when the service exits
   * first.
   */
  public ServiceProcess awaitOk(URI url, Duration patience) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    Instant deadline = Instant.now().plus(patience);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive())
        throw new AssertionError("the service exited during start-up; see " + log);
      if (status(http, url) == 200) return this;
      Thread.sleep(200);
    }
    // a node that never became ready is not left behind for the next test to collide with
    process.destroyForcibly();
    throw new AssertionError(
        url + " did not answer 200 within " + patience.toSeconds() + " s; see " + log);
  }

  /** The status {@code url} answers with, or 0 when nothing listens there. */
  public static int status(HttpClient http, URI url) throws InterruptedException {
    try {
      return http.send(
              HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(2)).build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException notListening) {
      return 0;
    }
  }

  public boolean isAlive() {
    return process != null && process.isAlive();
  }

  /** Runs a command of the same jar with the same environment; answers its exit code. */
  public int command(List<String> args, String stdin) throws Exception {
    return output(args, stdin).exit();
  }

  /** A finished command: its exit code and standard output (standard error goes to the log). */
  public record Output(int exit, String stdout) {}

  public Output output(List<String> args, String stdin) throws Exception {
    Path stdout = Files.createTempFile("periscope-command", ".out");
    try {
      Process p = java(args, stdin, ProcessBuilder.Redirect.to(stdout.toFile()));
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("command " + args + " did not finish");
      }
      return new Output(p.exitValue(), Files.readString(stdout));
    } finally {
      Files.deleteIfExists(stdout);
    }
  }

  /**
   * Starts a command of the same jar that runs until stopped (history --follow): its standard
   * output is the process's input stream; standard error goes to the log.
   */
  public Process started(List<String> args) throws IOException {
    return java(args, null, ProcessBuilder.Redirect.PIPE);
  }

  /**
   * Creates the administrator {@code id} (address id@example.org) with the command line, as an
   * operator does first, and signs it in: its token.
   */
  public String signedInAdmin(String id, String password) throws Exception {
    List<String> create =
        List.of("users", "create", "--id", id, "--email", id + "@example.org", "--role", "admin");
    if (command(create, password + "\n") != 0)
      throw new AssertionError("users create " + id + " failed; see " + log);
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(uri("/auth/login"))
                    .header("Content-Type", "application/json")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            Json.text(Map.of("email", id + "@example.org", "password", password))))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) throw new AssertionError("login of " + id + ": " + r.body());
    return Json.MAPPER.readTree(r.body()).get("token").asText();
  }

  /** kill -9: no shutdown hook, no coordinated shutdown. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS))
      throw new AssertionError("the killed service did not die");
  }

  /**
   * SIGSTOP: the process stays, answers nothing (remoting, HTTP, its database sessions) until
   * {@link #resume}, as a node starved of CPU or frozen by a long pause.
   */
  public void pause() throws Exception {
    signal("STOP");
  }

  /** SIGCONT after {@link #pause}. */
  public void resume() throws Exception {
    signal("CONT");
  }

  private void signal(String name) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start();
    if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0)
      throw new AssertionError("kill -" + name + " " + process.pid() + " failed");
  }

  /** SIGTERM, then waits for the exit. */
  public int stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("the service did not stop within 60 s of SIGTERM");
    }
    return process.exitValue();
  }

  private Process java(List<String> args, String stdin, ProcessBuilder.Redirect stdout)
      throws IOException {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                jar.toString()));
    cmd.addAll(args);
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .redirectOutput(stdout)
            .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
    pb.environment()
        .keySet()
        .removeIf(
            k ->
                k.startsWith("DATABASE_")
                    || k.startsWith("MODEL_")
                    || k.startsWith("SEARCH_")
                    || k.startsWith("TELEGRAM_")
                    || k.startsWith("AUTH_")
                    || k.equals("PORT"));
    pb.environment().putAll(env);
    Process p = pb.start();
    if (stdin != null) {
      p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
    }
    p.getOutputStream().close();
    return p;
  }

  public static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  public static Path logFile(String name) throws IOException {
    Path dir = Path.of("target", "it-logs");
    Files.createDirectories(dir);
    return dir.resolve(name + ".log");
  }

  @Override
  public void close() throws InterruptedException {
    if (process != null && process.isAlive()) kill();
  }
}
