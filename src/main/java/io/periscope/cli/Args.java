package io.periscope.cli;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** {@code --name value} options and {@code --flag} switches of one command. */
final class Args {
  private final Map<String, String> options = new HashMap<>();

  Args(List<String> args, Set<String> valued, Set<String> flags) {
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (flags.contains(a)) {
        options.put(a, "true");
      } else if (valued.contains(a) && i + 1 < args.size()) {
        options.put(a, args.get(++i));
      } else {
        throw new UsageException("unexpected argument '" + a + "'");
      }
    }
  }

  Optional<String> get(String name) {
    return Optional.ofNullable(options.get(name));
  }

  String required(String name) {
    return get(name).orElseThrow(() -> new UsageException(name + " is required"));
  }

  boolean flag(String name) {
    return options.containsKey(name);
  }

  /** A command line that cannot be understood: exit 2 with the reason. */
  static final class UsageException extends RuntimeException {
    UsageException(String message) {
      super(message);
    }
  }
}
