// Compresses files exactly as the Kafka Java client compresses a record batch's records, with the
// client's own codec classes and default levels (snappy-java's xerial framing, KafkaLZ4BlockOutputStream,
// zstd-jni, GZIPOutputStream). For bench/codecs.js and the committed test fixtures
// (test/unit/kafka/patches/codecs/fixtures/generate.js); run it with the source launcher:
//
//   java -cp 'kafka-clients.jar:snappy-java.jar:lz4-java.jar:zstd-jni.jar:slf4j-api.jar' \
//     test/helpers/java/CompressBlobs.java CODEC IN OUT [IN OUT]...
//
// CODEC is gzip, snappy, lz4 or zstd (Kafka's framing), or snappy-raw (one raw snappy block, as
// librdkafka writes).
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.utils.internals.ByteBufferOutputStream;

public final class CompressBlobs {
  private static final byte MAGIC_V2 = 2;

  public static void main(String[] args) throws Exception {
    if (args.length < 3 || args.length % 2 == 0) {
      throw new IllegalArgumentException("usage: CompressBlobs CODEC IN OUT [IN OUT]...");
    }
    String codec = args[0];
    for (int i = 1; i < args.length; i += 2) {
      byte[] input = Files.readAllBytes(Path.of(args[i]));
      Files.write(Path.of(args[i + 1]), compress(codec, input));
    }
  }

  private static byte[] compress(String codec, byte[] input) throws Exception {
    if (codec.equals("snappy-raw")) return org.xerial.snappy.Snappy.compress(input);
    ByteBufferOutputStream buffer = new ByteBufferOutputStream(input.length / 2 + 64);
    try (OutputStream out = Compression.of(codec).build().wrapForOutput(buffer, MAGIC_V2)) {
      out.write(input);
    }
    ByteBuffer written = buffer.buffer();
    written.flip();
    byte[] bytes = new byte[written.remaining()];
    written.get(bytes);
    return bytes;
  }
}
