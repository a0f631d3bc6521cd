import jdk.jfr.consumer.*;
import java.nio.file.*;
import java.util.*;
/** java JfrFocus.java file.jfr method-substring : callees and callers of the focus frame, with line numbers of self samples. */
public class JfrFocus {
  public static void main(String[] a) throws Exception {
    Map<String,Integer> callees=new HashMap<>(), callers=new HashMap<>(), lines=new HashMap<>(); int n=0, hit=0;
    for (RecordedEvent e : RecordingFile.readAllEvents(Path.of(a[0]))) {
      if (!e.getEventType().getName().equals("jdk.ExecutionSample")) continue;
      RecordedStackTrace st=e.getStackTrace(); if (st==null) continue; n++;
      List<RecordedFrame> fr=st.getFrames();
      for (int i=0;i<fr.size();i++){ RecordedFrame f=fr.get(i); String k=f.getMethod().getType().getName()+"."+f.getMethod().getName();
        if (!k.contains(a[1])) continue; hit++;
        if (i==0) lines.merge("self line "+f.getLineNumber(),1,Integer::sum);
        else { RecordedFrame c=fr.get(i-1); callees.merge(c.getMethod().getType().getName()+"."+c.getMethod().getName()+" @"+f.getLineNumber(),1,Integer::sum); }
        if (i+1<fr.size()) { RecordedFrame p=fr.get(i+1); callers.merge(p.getMethod().getType().getName()+"."+p.getMethod().getName()+":"+p.getLineNumber(),1,Integer::sum); }
        break; }
    }
    System.out.println("samples "+n+" with focus "+hit);
    final int N=n;
    for (var m : List.of(Map.entry("self", lines), Map.entry("callees", callees), Map.entry("callers", callers))) {
      System.out.println("== "+m.getKey());
      m.getValue().entrySet().stream().sorted((x,y)->y.getValue()-x.getValue()).limit(25).forEach(x->System.out.printf("%5.1f%% %s%n",x.getValue()*100.0/N,x.getKey()));
    }
  }
}
