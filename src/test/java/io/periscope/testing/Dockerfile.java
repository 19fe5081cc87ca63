package io.periscope.testing;

import com.fasterxml.jackson.databind.JsonNode;
import io.periscope.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The repository's Dockerfile read as instructions, stage by stage (there is no Docker engine in
 * the tests to build it).
 */
public final class Dockerfile {
  private Dockerfile() {}

  /** One instruction: its keyword and its arguments, continuation lines joined. */
  public record Instruction(String keyword, String args) {}

  /** Each stage's instructions, its FROM first, in order. */
  public static List<List<Instruction>> stages() throws IOException {
    List<List<Instruction>> stages = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String raw : Files.readAllLines(Path.of("Dockerfile"))) {
      if (raw.stripLeading().startsWith("#") || (line.isEmpty() && raw.isBlank())) continue;
      if (raw.endsWith("\\")) {
        line.append(raw, 0, raw.length() - 1).append(' ');
        continue;
      }
      line.append(raw);
      String text = line.toString().strip();
      line.setLength(0);
      int space = text.indexOf(' ');
      Instruction i = new Instruction(text.substring(0, space), text.substring(space + 1).strip());
      if (i.keyword().equals("FROM")) stages.add(new ArrayList<>());
      stages.get(stages.size() - 1).add(i);
    }
    return stages;
  }

  /** The last stage: the image that runs. */
  public static List<Instruction> runtime() throws IOException {
    List<List<Instruction>> stages = stages();
    return stages.get(stages.size() - 1);
  }

  /** The arguments of each {@code keyword} instruction of {@code stage}, in order. */
  public static List<String> all(List<Instruction> stage, String keyword) {
    return stage.stream().filter(i -> i.keyword().equals(keyword)).map(Instruction::args).toList();
  }

  /** The image's health check command, as the exec form's JSON array. */
  public static List<String> healthCheckCommand() throws IOException {
    String check = all(runtime(), "HEALTHCHECK").get(0);
    JsonNode command = Json.MAPPER.readTree(check.substring(check.indexOf("CMD ") + 4));
    List<String> parts = new ArrayList<>();
    command.forEach(p -> parts.add(p.asText()));
    return parts;
  }
}
