/** java docs/results/notes/tools/JfrTop.java file.jfr [thread-name-part]: the hottest methods by JFR execution samples, self and inclusive. */
import jdk.jfr.consumer.*;
import java.nio.file.*;
import java.util.*;
public class JfrTop {
  public static void main(String[] a) throws Exception {
    Map<String,Integer> self=new HashMap<>(), incl=new HashMap<>(); int n=0;
    String filter = a.length>1? a[1] : null;
    for (RecordedEvent e : RecordingFile.readAllEvents(Path.of(a[0]))) {
      if (!e.getEventType().getName().equals("jdk.ExecutionSample")) continue;
      RecordedStackTrace st=e.getStackTrace(); if (st==null) continue;
      if (filter!=null) { String t = e.getThread("sampledThread")==null?"":e.getThread("sampledThread").getJavaName(); if (t==null || !t.contains(filter)) continue; }
      n++;
      List<RecordedFrame> fr=st.getFrames(); Set<String> seen=new HashSet<>();
      for (int i=0;i<fr.size();i++){ RecordedMethod m=fr.get(i).getMethod(); String k=m.getType().getName()+"."+m.getName();
        if(i==0) self.merge(k,1,Integer::sum); if(seen.add(k)) incl.merge(k,1,Integer::sum);} }
    System.out.println("samples "+n);
    final int N=n;
    System.out.println("== self"); self.entrySet().stream().sorted((x,y)->y.getValue()-x.getValue()).limit(30).forEach(x->System.out.printf("%5.1f%% %s%n",x.getValue()*100.0/N,x.getKey()));
    System.out.println("== inclusive"); incl.entrySet().stream().sorted((x,y)->y.getValue()-x.getValue()).limit(50).forEach(x->System.out.printf("%5.1f%% %s%n",x.getValue()*100.0/N,x.getKey()));
  }
}
