// A real Java transactional producer that holds its transaction open until told to end it, for the
// integration tests of open transactions (records a committed reader cannot see yet).
// Compiled and run by test/helpers/java-transaction.ts.
//
// stdin, JSON lines. The first line holds the options:
//   {"bootstrap": "127.0.0.1:19092", "transactionalId": "tx-1"}
// every further line one record, up to a line "send":
//   {"topic": "t", "partition": 0, "value": "...", "headers": [["producer", "web"]]}
// Then the producer begins a transaction, sends the records, flushes them (they are in the log, past
// the last stable offset) and prints one JSON line: {"open": true, "offsets": [[partition, offset], ...]}.
// It then waits for a line "commit" or "abort", ends the transaction so, prints {"ended": "commit"} or
// {"ended": "abort"} and exits 0. On any failure it exits 1 with the reason on stderr.
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public final class HoldTransaction {
  public static void main(String[] args) throws Exception {
    ObjectMapper json = new ObjectMapper();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    JsonNode options = json.readTree(in.readLine());

    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, options.get("bootstrap").asText());
    props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, options.get("transactionalId").asText());
    // Long enough for any test to hold it open: the broker aborts a transaction older than this.
    props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 300_000);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());

    List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
    String line;
    while ((line = in.readLine()) != null && !line.equals("send")) {
      if (line.isBlank()) continue;
      JsonNode spec = json.readTree(line);
      RecordHeaders headers = new RecordHeaders();
      for (JsonNode header : spec.path("headers")) {
        headers.add(header.get(0).asText(), header.get(1).asText().getBytes(StandardCharsets.UTF_8));
      }
      Integer partition = spec.hasNonNull("partition") ? spec.get("partition").asInt() : null;
      records.add(new ProducerRecord<>(spec.get("topic").asText(), partition, null, null,
          spec.get("value").asText().getBytes(StandardCharsets.UTF_8), headers));
    }

    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
      producer.initTransactions();
      producer.beginTransaction();
      List<Future<RecordMetadata>> sent = new ArrayList<>();
      for (ProducerRecord<byte[], byte[]> record : records) sent.add(producer.send(record));
      producer.flush();
      ObjectNode open = json.createObjectNode();
      open.put("open", true);
      ArrayNode offsets = open.putArray("offsets");
      for (Future<RecordMetadata> future : sent) {
        RecordMetadata metadata = future.get();
        offsets.addArray().add(metadata.partition()).add(metadata.offset());
      }
      out.println(json.writeValueAsString(open));

      String end = in.readLine();
      if ("commit".equals(end)) producer.commitTransaction();
      else if ("abort".equals(end)) producer.abortTransaction();
      else throw new IllegalArgumentException("expected commit or abort, got " + end);
      ObjectNode ended = json.createObjectNode();
      ended.put("ended", end);
      out.println(json.writeValueAsString(ended));
      producer.close(Duration.ofSeconds(10));
    }
  }
}
