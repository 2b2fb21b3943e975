// The Kafka project's own Java consumer doing nothing with what it reads: the benchmark's floor for
// the CPU a consumer of the same records needs. Compiled and run by bench/java-consumer.js against
// the kafka-clients jar that scripts/kafka-broker.sh fetches.
//
//   java -cp CLASSES:KAFKA_JARS BareConsumer BOOTSTRAP TOPIC RECORDS
//
// Reads the topic from its beginning in a fresh consumer group, read_committed as schemawatch reads,
// with byte-array deserializers (no decoding of keys or values; the client still parses every record
// and its headers), the client's default fetch sizes, until RECORDS records were handed over. Prints
// one JSON line, timed like bench/consumer.js from the first record handed over to the last:
//   {"rate": records/s, "cpuSecondsPerMillion": process CPU (every thread: JIT, GC, network), "peakRssMb": VmHWM}
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

public final class BareConsumer {
  public static void main(String[] args) throws Exception {
    String bootstrap = args[0];
    String topic = args[1];
    long records = Long.parseLong(args[2]);
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "bench-java-" + UUID.randomUUID());
    props.put(ConsumerConfig.CLIENT_ID_CONFIG, "schemawatch-bench-java");
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long count = 0;
    long startNanos = 0;
    long startCpu = 0;
    long headers = 0;
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
      consumer.subscribe(List.of(topic));
      while (count < records) {
        ConsumerRecords<byte[], byte[]> polled = consumer.poll(Duration.ofMillis(500));
        if (polled.isEmpty()) continue;
        if (count == 0) {
          startNanos = System.nanoTime();
          startCpu = os.getProcessCpuTime();
        }
        // Touch each record's headers so that the client cannot skip work a reader would need.
        for (var record : polled) headers += record.headers().toArray().length;
        count += polled.count();
      }
      long nanos = System.nanoTime() - startNanos;
      long cpu = os.getProcessCpuTime() - startCpu;
      System.out.println(
          "{\"rate\":" + (records / (nanos / 1e9))
              + ",\"cpuSecondsPerMillion\":" + (cpu / 1e9 / (records / 1e6))
              + ",\"peakRssMb\":" + peakRssMb()
              + ",\"validated\":0,\"headers\":" + headers + "}");
    }
  }

  /** The process's peak resident memory from /proc, in MiB (0 where /proc is absent). */
  private static double peakRssMb() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
      }
    } catch (Exception e) {
      // Not Linux: no figure.
    }
    return 0;
  }
}
