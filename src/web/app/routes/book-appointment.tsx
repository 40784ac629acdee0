// Placeholder until its feature lands.
export default function BookAppointmentPage() {
  return <h1 className="text-2xl font-bold">BookAppointment</h1>;
}
