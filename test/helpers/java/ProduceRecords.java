// A real Java producer for schemawatch's integration tests: records written by the Kafka client that
// production producers use, with its own codecs (snappy-java, lz4-java, zstd-jni) and batching.
// Compiled and run by test/helpers/java-producer.ts.
//
// stdin, JSON lines. The first line holds the options:
//   {"bootstrap": "127.0.0.1:19092", "compression": "lz4", "lingerMs": 60000, "batchSize": 1048576,
//    "config": {"compression.lz4.level": "1"}}
// every further line one record:
//   {"topic": "t", "partition": 0, "timestamp": 1796112000000, "key": "k", "value": {"base64": "..."},
//    "headers": [["producer", "web"], ["trace", null], ["bin", {"base64": "AAE="}]]}
// where a key, value or header value is null, a UTF-8 string, or {"base64": "..."}.
//
// stdout, after every record is acknowledged (acks=all): one JSON line per record, in input order,
//   {"topic": "t", "partition": 0, "offset": 17}
// Exit 0 when every record was written; 1 (the reason on stderr) otherwise.
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public final class ProduceRecords {
  public static void main(String[] args) throws Exception {
    ObjectMapper json = new ObjectMapper();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String first = in.readLine();
    if (first == null) throw new IllegalArgumentException("no options line on stdin");
    JsonNode options = json.readTree(first);

    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, options.get("bootstrap").asText());
    props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, options.path("compression").asText("none"));
    // A long linger and a large batch: every record sent before flush() shares its partition's batch,
    // however slowly a loaded machine reads the records in (flush() sends at once, linger or not).
    int lingerMs = options.path("lingerMs").asInt(60_000);
    int requestTimeoutMs = 20_000;
    props.put(ProducerConfig.LINGER_MS_CONFIG, lingerMs);
    props.put(ProducerConfig.BATCH_SIZE_CONFIG, options.path("batchSize").asInt(1 << 20));
    props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 8 << 20);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    // The client requires delivery.timeout.ms >= linger.ms + request.timeout.ms.
    props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, lingerMs + requestTimeoutMs + 30_000);
    props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, requestTimeoutMs);
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    Iterator<Map.Entry<String, JsonNode>> extra = options.path("config").fields();
    while (extra.hasNext()) {
      Map.Entry<String, JsonNode> entry = extra.next();
      props.put(entry.getKey(), entry.getValue().asText());
    }

    List<Future<RecordMetadata>> sent = new ArrayList<>();
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.isBlank()) continue;
        sent.add(producer.send(record(json.readTree(line))));
      }
      producer.flush();
      PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
      for (Future<RecordMetadata> future : sent) {
        RecordMetadata metadata = future.get();
        ObjectNode result = json.createObjectNode();
        result.put("topic", metadata.topic());
        result.put("partition", metadata.partition());
        result.put("offset", metadata.offset());
        out.println(json.writeValueAsString(result));
      }
      out.flush();
      producer.close(Duration.ofSeconds(10));
    }
  }

  private static ProducerRecord<byte[], byte[]> record(JsonNode spec) {
    RecordHeaders headers = new RecordHeaders();
    for (JsonNode header : spec.path("headers")) {
      headers.add(header.get(0).asText(), bytes(header.get(1)));
    }
    Integer partition = spec.hasNonNull("partition") ? spec.get("partition").asInt() : null;
    Long timestamp = spec.hasNonNull("timestamp") ? spec.get("timestamp").asLong() : null;
    return new ProducerRecord<>(
        spec.get("topic").asText(), partition, timestamp, bytes(spec.get("key")), bytes(spec.get("value")),
        headers);
  }

  /** null, a UTF-8 string or {"base64": "..."}; a missing field is null. */
  private static byte[] bytes(JsonNode node) {
    if (node == null || node.isNull()) return null;
    if (node.isTextual()) return node.asText().getBytes(StandardCharsets.UTF_8);
    return Base64.getDecoder().decode(node.get("base64").asText());
  }
}
