import { Download } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/api";
import { useDownloadExport } from "../api/download-export";

/** "Download my data": one JSON file of everything Errandly keeps about the person. */
export function ExportDataCard() {
  const download = useDownloadExport();
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-xl">
          <h2>Download my data</h2>
        </CardTitle>
        <CardDescription>
          One JSON file with your profile, provider application, tasks, the messages you wrote, reviews, payments, payouts,
          notifications, signed-in devices and the audit entries about you.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button
          type="button"
          variant="outline"
          disabled={download.isPending}
          onClick={() =>
            download.mutate(undefined, {
              onSuccess: (name) => toast({ title: "Download started", description: name }),
              onError: (error) => toast({ title: "Could not prepare your data", description: errorMessage(error, "Please try again in a minute."), variant: "destructive" }),
            })
          }
        >
          <Download aria-hidden="true" />
          {download.isPending ? "Preparing..." : "Download my data"}
        </Button>
      </CardContent>
    </Card>
  );
}
