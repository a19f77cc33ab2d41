// A BM25 baseline of the kind documentation sites run server-side (Lucene, Tantivy): Lucene 8.7 as
// Debian packages it (liblucene8-java), Tantivy's English analysis (a word tokenizer, lower case,
// Snowball's English stemmer, no stop words), BM25 (k1 1.2, b 0.75), the title boosted 3x over the
// body, query words joined by OR (Lucene's and Tantivy's default).
//
//   java -cp CLASSES:JARS LuceneBaseline CORPUS.tsv QUERIES.txt REPEAT > RESULTS.tsv
//
// CORPUS.tsv: url<TAB>title<TAB>text per page (bench/search/peers.py writes it from the crawled
// pages). QUERIES.txt: one query per line. Prints, per query and in order, one line:
// p50_ns<TAB>max_ns<TAB>url1<TAB>url2... (the top 10), the times over REPEAT runs of the query
// (after one warm-up run of every query): parsing, searching and reading the hits' URLs.
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.custom.CustomAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.queryparser.classic.MultiFieldQueryParser;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;

public class LuceneBaseline {
  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: LuceneBaseline CORPUS.tsv QUERIES.txt REPEAT");
      System.exit(2);
    }
    Analyzer analyzer = CustomAnalyzer.builder()
        .withTokenizer("standard")
        .addTokenFilter("lowercase")
        .addTokenFilter("snowballPorter", "language", "English")
        .build();
    ByteBuffersDirectory dir = new ByteBuffersDirectory();
    IndexWriterConfig config = new IndexWriterConfig(analyzer);
    config.setSimilarity(new BM25Similarity());
    try (IndexWriter w = new IndexWriter(dir, config);
         BufferedReader in = Files.newBufferedReader(Paths.get(args[0]), StandardCharsets.UTF_8)) {
      String line;
      while ((line = in.readLine()) != null) {
        String[] f = line.split("\t", 3);
        if (f.length < 3) continue;
        Document d = new Document();
        d.add(new StoredField("url", f[0]));
        d.add(new TextField("title", f[1], Field.Store.NO));
        d.add(new TextField("body", f[2], Field.Store.NO));
        w.addDocument(d);
      }
    }
    IndexSearcher searcher = new IndexSearcher(DirectoryReader.open(dir));
    searcher.setSimilarity(new BM25Similarity());
    Map<String, Float> boosts = new HashMap<>();
    boosts.put("title", 3f);
    boosts.put("body", 1f);
    List<String> queries = Files.readAllLines(Paths.get(args[1]), StandardCharsets.UTF_8);
    int repeat = Integer.parseInt(args[2]);
    StringBuilder out = new StringBuilder();
    for (String query : queries) search(searcher, analyzer, boosts, query, null);  // warm-up
    for (String query : queries) {
      long[] times = new long[Math.max(1, repeat)];
      List<String> urls = null;
      for (int r = 0; r < times.length; ++r) {
        List<String> got = new ArrayList<>();
        long t0 = System.nanoTime();
        search(searcher, analyzer, boosts, query, got);
        times[r] = System.nanoTime() - t0;
        urls = got;
      }
      Arrays.sort(times);
      out.append(times[times.length / 2]).append('\t').append(times[times.length - 1]);
      for (String u : urls) out.append('\t').append(u);
      out.append('\n');
    }
    System.out.print(out);
  }

  static void search(IndexSearcher searcher, Analyzer analyzer, Map<String, Float> boosts,
                     String query, List<String> urls) throws Exception {
    MultiFieldQueryParser parser =
        new MultiFieldQueryParser(new String[] {"title", "body"}, analyzer, boosts);
    parser.setDefaultOperator(QueryParser.Operator.OR);
    Query q = parser.parse(QueryParser.escape(query));
    TopDocs top = searcher.search(q, 10);
    for (ScoreDoc sd : top.scoreDocs) {
      String url = searcher.doc(sd.doc).get("url");
      if (urls != null) urls.add(url);
    }
  }
}
