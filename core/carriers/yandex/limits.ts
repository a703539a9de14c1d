// Yandex Delivery «другой день» published limits. Its limits page ("Ограничения по весу, габаритам и
// содержимому заказов", yandex.com/support/delivery-profile/ru/other-day/limits.md) accepts an order that fits
// one of its packages: envelope A4 ≤ 0.5 kg, S 25×15×10 cm ≤ 2 kg, M 35×25×15 ≤ 5 kg, L 45×30×20 ≤ 12 kg,
// XL 60×40×45 cm. The XL weight was cut off in the stored copy; the weight ceiling is Yandex's per-place rule
// "не более 31 кг, любая сторона не более 1 м" (yandex.ru/support/delivery-3/service-cost/yandex-services.html)
// — confirm the XL weight on the live page (docs/carriers.md, smoke test). Sides: the XL box, so 60 cm the
// longest and 145 cm in all; anything larger is not a Yandex parcel. All of these hold per place («любое
// место», the packages are boxes); Yandex publishes no limit of places or total weight per order, so no
// shipment limit is declared (its answer, 404 "Dimensions should not exceed limit", decides).
import type { CarrierLimits } from '../limits';

export const YANDEX_LIMITS: CarrierLimits = {
  maxWeightGrams: 31_000,
  maxLengthCm: 60,
  maxSumOfSidesCm: 145,
};
