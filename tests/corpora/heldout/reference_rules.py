#!/usr/bin/env python3
"""Hand-encoded reference semantics for the held-out corpus (NOT used by the checker).

Each statement of each manual is encoded here by hand, per CONTRACTS.md "Rule
semantics", with thresholds converted to manifest units using exact Fractions.
Running this script regenerates queries.jsonl, replay.jsonl and replay/*.csv and
verifies every expect piece occurs exactly once in its domain's manual.
"""
import json, os, re
from fractions import Fraction as F

HERE = os.path.dirname(os.path.abspath(__file__))
PSI_KPA = F("6.894757293168361")      # 1 psi in kPa (to 1e-15; no query sits near a psi boundary)
KT_MS = F(1852, 3600)
KT_KMH = F("1.852")                   # 1 kt in km/h (exact)
FT_M = F("0.3048")                    # 1 ft in m (exact)
def C2F(c): return F(c) * F(9, 5) + 32
def F2C(f): return (F(f) - 32) * F(5, 9)
def C2K(c): return F(c) + F("273.15")

class P:
    """parameter reference; absent/invalid -> None"""
def v(s, name):
    x = s.get(name)
    return x  # None when absent or invalid (validity is applied in valid_state)

def cmp(op):
    def f(s, name, t):
        x = s.get(name)
        if x is None:
            return None
        return op(x, F(t))
    return f
gt = cmp(lambda a, b: a > b); ge = cmp(lambda a, b: a >= b)
lt = cmp(lambda a, b: a < b); le = cmp(lambda a, b: a <= b)
eq = cmp(lambda a, b: a == b)
def between(s, n, a, b):
    x = s.get(n)
    return None if x is None else (F(a) <= x <= F(b))
def outside(s, n, a, b):
    x = s.get(n)
    return None if x is None else (x < F(a) or x > F(b))
# three-valued logic: None = "not satisfied, and neither is its negation"
def AND(*xs): return all(x is True for x in xs)
def OR(*xs): return any(x is True for x in xs)
def NOT(x): return None if x is None else (not x)

RANGES = {}
DOMAINS = {}

def domain(name, ranges, rules):
    RANGES[name] = {k: (F(a), F(b)) for k, (a, b) in ranges.items()}
    DOMAINS[name] = rules   # list of (piece, cond, duration_s or None, hysteresis-cond or None)

# ---------------------------------------------------------------- aircraft_engine
domain("aircraft_engine",
       {"egt": (-60, 1200), "n1": (0, 120), "oil_pressure": (0, 1000), "oil_temperature": (-60, 200), "altitude": (-500, 20000)},
       [("If the EGT exceeds 950 °C, reduce thrust to idle", lambda s: gt(s, "egt", 950), None),
        ("stays above 900 °C for more than 5 minutes", lambda s: gt(s, "egt", 900), 300),
        ("Maximum N1: 104 %", lambda s: gt(s, "n1", 104), None),
        ("abort the start (hung start)", lambda s: AND(le(s, "n1", 25), gt(s, "egt", 700)), None),
        ("drops below 13 psi, shut down the engine", lambda s: lt(s, "oil_pressure", 13 * PSI_KPA), None),
        ("reduce thrust until the oil pressure recovers",
         lambda s: AND(between(s, "oil_pressure", 13 * PSI_KPA, 25 * PSI_KPA), ge(s, "n1", 80)), None),
        ("The maximum oil temperature is 155 °C", lambda s: gt(s, "oil_temperature", 155), None),
        ("exceeds 140 °C (284 °F) for more than 15 minutes", lambda s: gt(s, "oil_temperature", 140), 900),
        ("less than -40 °C, do not attempt an engine start", lambda s: lt(s, "oil_temperature", -40), None),
        ("greater than 30,000 ft", lambda s: gt(s, "altitude", 30000 * F("0.3048")), None)])

# ---------------------------------------------------------------- battery_bms
domain("battery_bms",
       {"cell_voltage": (0, 5), "cell_voltage_imbalance": (0, 2000), "cell_temperature": (-40, 100),
        "pack_current": (-1000, 1000), "soc": (0, 100)},
       [("exceeds 4,200 mV, open the charge contactor", lambda s: gt(s, "cell_voltage", F("4.2")), None),
        ("falls below 2,800 mV", lambda s: lt(s, "cell_voltage", F("2.8")), None),
        ("flag an SOC estimation fault", lambda s: AND(le(s, "cell_voltage", 3), gt(s, "soc", 20)), None),
        ("imbalance must not exceed 0.05 V", lambda s: gt(s, "cell_voltage_imbalance", 50), None),
        ("exceeds 55 °C, reduce the charge current", lambda s: gt(s, "cell_temperature", 55), None,
         # deadband 2.0: once raised, stays raised until cell_temperature < 53
         lambda s: NOT(lt(s, "cell_temperature", 53))),
        ("inhibit charging", lambda s: lt(s, "cell_temperature", 0), None),
        ("open both contactors", lambda s: OR(gt(s, "cell_temperature", 65), gt(s, "pack_current", 400)), None),
        ("must stay below 250 A", lambda s: NOT(lt(s, "pack_current", 250)), None),
        ("limit the discharge power", lambda s: lt(s, "pack_current", -300), None),
        ("shall be kept between 5 % and 95 %", lambda s: outside(s, "soc", 5, 95), None),
        ("SOC reaches 100 %", lambda s: eq(s, "soc", 100), None),
        ("request limp-home mode",
         lambda s: AND(lt(s, "soc", 10), OR(lt(s, "cell_temperature", -10), lt(s, "pack_current", -200))), None)])

# ---------------------------------------------------------------- icu_monitoring
domain("icu_monitoring",
       {"spo2": (0, 100), "resp_rate": (0, 80), "map": (0, 250), "heart_rate": (0, 300),
        "core_temperature": (25, 45), "gcs": (3, 15)},
       [("falls below 85 %, call the intensive care physician", lambda s: lt(s, "spo2", 85), None),
        ("remains below 90 % for more than 30 seconds", lambda s: lt(s, "spo2", 90), 30),
        ("prepare non-invasive ventilation", lambda s: OR(gt(s, "resp_rate", 30), lt(s, "spo2", 88)), None),
        ("Sound the apnoea alarm", lambda s: le(s, "resp_rate", 6), None),
        ("start the sepsis bundle",
         lambda s: AND(lt(s, "map", 65), OR(gt(s, "heart_rate", 110), ge(s, "core_temperature", F("38.3")))), None),
        ("record a 12-lead ECG unless", lambda s: AND(ge(s, "heart_rate", 150), NOT(lt(s, "map", 60))), None),
        ("Give a fluid bolus", lambda s: AND(lt(s, "map", 65), NOT(gt(s, "resp_rate", 35))), None),
        ("shall be kept between 55 and 120 mmHg", lambda s: outside(s, "map", 55, 120), None),
        ("start a noradrenaline infusion", lambda s: lt(s, "map", 65), 900),
        ("GCS drops below 9 points", lambda s: lt(s, "gcs", 9), None),
        ("apply active temperature management", lambda s: outside(s, "core_temperature", 35, F("39.5")), None)])

# ---------------------------------------------------------------- water_treatment
domain("water_treatment",
       {"turbidity": (0, 100), "free_chlorine": (0, 10), "ph": (0, 14), "clearwell_level": (0, 6),
        "reservoir_level": (0, 100), "pump_pressure": (0, 1600)},
       [("Maximum turbidity: 1.0 NTU", lambda s: gt(s, "turbidity", 1), None),
        ("remains above 0.3 NTU for more than 4 hours", lambda s: gt(s, "turbidity", F("0.3")), 4 * 3600),
        ("shall remain between 0.2 and 4.0 mg/L", lambda s: outside(s, "free_chlorine", F("0.2"), 4), None),
        ("no less than 3.5 mg/L", lambda s: ge(s, "free_chlorine", F("3.5")), None),
        ("outside 6.5 to 8.5", lambda s: outside(s, "ph", F("6.5"), F("8.5")), None),
        ("increase the chlorine dose",
         lambda s: AND(between(s, "ph", 8, F("8.5")), lt(s, "free_chlorine", F("0.5"))), None),
        ("not more than 0.5 m", lambda s: le(s, "clearwell_level", F("0.5")), None),
        ("stays below 1.2 m for more than 30 minutes", lambda s: lt(s, "clearwell_level", F("1.2")), 1800),
        ("close the inlet valve", lambda s: OR(gt(s, "reservoir_level", 95), gt(s, "clearwell_level", F("4.5"))), None),
        ("above a discharge pressure of 6.5 bar", lambda s: gt(s, "pump_pressure", 650), None),
        ("check the pump for air locking",
         lambda s: AND(lt(s, "pump_pressure", 150), gt(s, "clearwell_level", 1)), None)])

# ---------------------------------------------------------------- railway
domain("railway",
       {"train_speed": (0, 400), "wind_speed": (0, 80), "axle_temperature": (-50, 250), "brake_pipe_pressure": (0, 10)},
       [("exceeds 72 km/h, restrict the train speed", lambda s: gt(s, "wind_speed", F(72, 1) / F("3.6")), None),
        ("60 kt or more", lambda s: ge(s, "wind_speed", 60 * KT_MS), None),
        ("apply the crosswind speed restriction", lambda s: AND(gt(s, "train_speed", 250), gt(s, "wind_speed", 15)), None),
        ("rises above 90 °C", lambda s: gt(s, "axle_temperature", 90), None),
        ("from 70 °C to 90 °C", lambda s: between(s, "axle_temperature", 70, 90), None),
        ("exceeds 130°C, stop the train", lambda s: gt(s, "axle_temperature", 130), None),
        ("drops below 350 kPa", lambda s: lt(s, "brake_pipe_pressure", F("3.5")), None),
        ("keep the brakes applied", lambda s: AND(lt(s, "brake_pipe_pressure", F("4.8")), gt(s, "train_speed", 30)), None),
        ("maximum train speed is 300 km/h", lambda s: gt(s, "train_speed", 300), None),
        ("at most 5 km/h", lambda s: le(s, "train_speed", 5), None),
        ("remains below 40 km/h for more than 20 minutes", lambda s: lt(s, "train_speed", 40), 1200)])

# ---------------------------------------------------------------- power_plant
domain("power_plant",
       {"turbine_speed": (0, 5000), "steam_pressure": (0, 30), "generator_voltage": (0, 40),
        "insulation_resistance": (0, 100000), "lube_oil_temperature": (-20, 150),
        "bearing_temperature": (-20, 200), "bearing_vibration": (0, 50)},
       [("exceeds 3,300 rpm, trip the turbine", lambda s: gt(s, "turbine_speed", 3300), None),
        ("Engage the turning gear when the turbine speed", lambda s: AND(lt(s, "turbine_speed", 600), NOT(lt(s, "lube_oil_temperature", 20))), None),
        ("Maximum main steam pressure: 175 bar", lambda s: gt(s, "steam_pressure", F("17.5")), None),
        ("reduce the unit load to 50 %", lambda s: AND(lt(s, "steam_pressure", 12), ge(s, "turbine_speed", 3000)), None),
        ("shall remain between 20.9 kV and 23.1 kV", lambda s: outside(s, "generator_voltage", F("20.9"), F("23.1")), None),
        ("exceeds 24,200 V", lambda s: gt(s, "generator_voltage", F("24.2")), None),
        ("less than 500 kOhm", lambda s: lt(s, "insulation_resistance", F("0.5")), None),
        ("2 MΩ or less", lambda s: le(s, "insulation_resistance", 2), None),
        ("140 °F or higher", lambda s: ge(s, "lube_oil_temperature", F2C(140)), None),
        ("exceeds 118 °C (245 °F), trip the turbine", lambda s: gt(s, "bearing_temperature", 118), None),
        ("greater than 7.1 mm/s", lambda s: gt(s, "bearing_vibration", F("7.1")), None)])

# ---------------------------------------------------------------- satellite
domain("satellite",
       {"bus_voltage": (0, 50), "battery_current": (-50, 50), "battery_temperature": (200, 400),
        "wheel_speed": (-8000, 8000), "orbit_altitude": (0, 2000000)},
       [("≤ 26.0 V, switch off the payload", lambda s: le(s, "bus_voltage", 26), None),
        ("stays below 25.5 V for more than 10 s", lambda s: lt(s, "bus_voltage", F("25.5")), 10),
        ("≥ 33.6 V", lambda s: ge(s, "bus_voltage", F("33.6")), None),
        ("lower than -6,000 mA", lambda s: lt(s, "battery_current", -6), None),
        ("falls below -5 °C", lambda s: lt(s, "battery_temperature", C2K(-5)), None),
        ("shall be kept between 0 °C and +30 °C", lambda s: outside(s, "battery_temperature", C2K(0), C2K(30)), None),
        ("35 to 40 °C, reduce the charge rate", lambda s: between(s, "battery_temperature", C2K(35), C2K(40)), None),
        ("above +40 °C, stop charging", lambda s: gt(s, "battery_temperature", C2K(40)), None),
        ("outside the range -5,000 to +5,000 rpm", lambda s: outside(s, "wheel_speed", -5000, 5000), None),
        ("lower than 450 km", lambda s: lt(s, "orbit_altitude", 450000), None)])

# ---------------------------------------------------------------- cold_chain
domain("cold_chain",
       {"cargo_temperature": (-40, 140), "supply_air_temperature": (-40, 140), "compressor_pressure": (0, 600),
        "door_open_time": (0, 86400), "humidity": (0, 100), "batch_age": (0, 1000000)},
       [("shall be kept between 2 °C and 8 °C", lambda s: outside(s, "cargo_temperature", C2F(2), C2F(8)), None),
        ("rises above 8 °C for more than 30 minutes", lambda s: gt(s, "cargo_temperature", C2F(8)), 1800),
        ("exceeds 27 °C, reject the entire load", lambda s: gt(s, "cargo_temperature", C2F(27)), None),
        ("drops below -0.5 °C", lambda s: lt(s, "cargo_temperature", C2F(F("-0.5"))), None),
        ("check the refrigerant charge",
         lambda s: AND(ge(s, "supply_air_temperature", C2F(10)),
                       lt(s, "compressor_pressure", 5 * 100 / PSI_KPA)), None),
        ("door open time exceeds 5 min", lambda s: gt(s, "door_open_time", 300), None),
        ("adjust the humidity set point", lambda s: OR(lt(s, "humidity", 60), gt(s, "humidity", 95)), None),
        ("must not exceed 350 psi", lambda s: gt(s, "compressor_pressure", 350), None),
        ("younger than 48 hours", lambda s: lt(s, "batch_age", 48 * 60), None)])

# ---------------------------------------------------------------- process_pump
domain("process_pump",
       {"vibration": (0, 50), "bearing_temperature": (-20, 200), "discharge_pressure": (0, 5000),
        "suction_pressure": (0, 20), "motor_current": (0, 400), "lube_oil_level": (0, 100),
        "winding_temperature": (-40, 500)},
       [("indicates a bearing fault; stop the pump", lambda s: gt(s, "vibration", F("7.1")), None),
        ("over 105 °C are critical", lambda s: gt(s, "bearing_temperature", 105), None),
        ("above 12 bar, open the bypass valve", lambda s: gt(s, "discharge_pressure", 1200), None),
        ("below 0.4 bar, close the discharge valve", lambda s: lt(s, "suction_pressure", F("0.4")), None),
        ("motor current stays below 180 A", lambda s: ge(s, "motor_current", 180), None),
        ("lube oil level less than 20 %", lambda s: lt(s, "lube_oil_level", 20), None),
        ("≥ 140 °C: trip the motor", lambda s: ge(s, "winding_temperature", C2F(140)), None),
        ("in the event of a vibration exceeding 11 mm/s", lambda s: gt(s, "vibration", 11), None),
        ("more than 200 A is an alarm condition", lambda s: gt(s, "motor_current", 200), None),
        ("between 85 and 95 °C, increase the inspection", lambda s: between(s, "bearing_temperature", 85, 95), None)])

# ---------------------------------------------------------------- ventilator
domain("ventilator",
       {"paw_peak": (-2, 15), "peep": (0, 50), "minute_volume": (0, 60), "apnoea_time": (0, 600),
        "spo2": (0, 100), "fio2": (18, 100), "o2_supply_pressure": (0, 1000), "battery_time": (0, 36000),
        "airway_temperature": (0, 60)},
       [("exceeds 40 mbar", lambda s: gt(s, "paw_peak", 4), None),                      # mbar text -> kPa
        ("60 mbar or greater", lambda s: ge(s, "paw_peak", 6), None),
        ("Whenever the PEEP drops below 3 mbar", lambda s: lt(s, "peep", 3), None),
        ("ventilate the patient manually",
         lambda s: AND(lt(s, "minute_volume", 3), ge(s, "apnoea_time", 15)), None),
        ("lower than 0.5 L/min for more than 15 s", lambda s: lt(s, "minute_volume", F("0.5")), 15),
        ("Increase the FiO2 in steps of 10 %", lambda s: AND(lt(s, "spo2", 90), NOT(ge(s, "fio2", 80))), None),
        ("call the ICU physician",
         lambda s: OR(AND(gt(s, "fio2", 60), ge(s, "peep", 10)), lt(s, "spo2", 85)), None),
        ("must be between 2.7 bar and 6.0 bar", lambda s: outside(s, "o2_supply_pressure", 270, 600), None),
        ("as soon as the remaining battery time", lambda s: lt(s, "battery_time", 10 * 60), None),
        ("must never exceed 41 °C", lambda s: gt(s, "airway_temperature", 41), None)])

# ---------------------------------------------------------------- aircraft_fuel_hydraulics
domain("aircraft_fuel_hydraulics",
       {"fuel_temperature": (-70, 100), "altitude": (-600, 16000), "airspeed": (0, 1200),
        "hyd_pressure_a": (0, 5000), "hyd_fluid_temperature": (-65, 350), "reservoir_quantity": (0, 100)},
       [("Maximum operating altitude", lambda s: gt(s, "altitude", 41000 * FT_M), None),
        ("Do not extend the landing gear", lambda s: gt(s, "airspeed", 270 * KT_KMH), None),
        ("Do not operate the alternate flap system", lambda s: NOT(lt(s, "airspeed", 230 * KT_KMH)), None),
        ("Maximum fuel temperature", lambda s: gt(s, "fuel_temperature", 54), None),
        ("Minimum fuel temperature", lambda s: lt(s, "fuel_temperature", -44), None),
        ("increase speed or descend to warmer air",
         lambda s: AND(lt(s, "fuel_temperature", -35), gt(s, "altitude", 35000 * FT_M)), None),
        ("shall not be greater than 3,350 psi", lambda s: gt(s, "hyd_pressure_a", 3350), None),
        ("switch the system A electric pump OFF", lambda s: gt(s, "hyd_fluid_temperature", C2F(105)), None),
        ("Do not dispatch the airplane",
         lambda s: OR(AND(lt(s, "hyd_pressure_a", 2800), gt(s, "hyd_fluid_temperature", C2F(95))),
                      le(s, "reservoir_quantity", 25)), None),
        ("drops below 1,500 psi for more than 10 seconds", lambda s: lt(s, "hyd_pressure_a", 1500), 10)])

# ---------------------------------------------------------------- marine_diesel
domain("marine_diesel",
       {"lube_oil_pressure": (0, 1), "engine_speed": (0, 700), "jacket_water_temperature": (0, 130),
        "exhaust_temperature": (32, 1500), "oil_mist": (0, 10), "starting_air_pressure": (0, 4000),
        "running_hours": (0, 200000)},
       [("shall not fall below 2.5 bar",                                                  # bar text -> MPa
         lambda s: AND(lt(s, "lube_oil_pressure", F("0.25")), gt(s, "engine_speed", 300)), None),
        ("drop below 1.8 bar, stop the engine", lambda s: lt(s, "lube_oil_pressure", F("0.18")), None),
        ("standby lube oil pump starts automatically",
         lambda s: AND(lt(s, "lube_oil_pressure", F("0.3")), NOT(lt(s, "engine_speed", 100))), None),
        ("above 96 °C for more than 2 minutes", lambda s: gt(s, "jacket_water_temperature", 96), 120),
        ("100 °C or above", lambda s: ge(s, "jacket_water_temperature", 100), None),
        ("exceeds 520 °C", lambda s: gt(s, "exhaust_temperature", C2F(520)), None),
        # "reaches": == 0.5 (>= also accepted for a rising value), so no query sits above 0.5
        ("reaches 0.5 mg/L", lambda s: eq(s, "oil_mist", F("0.5")), None),
        ("must not be started", lambda s: lt(s, "starting_air_pressure", 1500), None),   # bar text -> kPa
        ("Engine speeds above 560 rpm", lambda s: gt(s, "engine_speed", 560), None),
        # "reach": == 12,000 (>= also accepted for a counter), so no query sits above 12,000
        ("overhaul the cylinder heads", lambda s: eq(s, "running_hours", 12000), None)])

# ---------------------------------------------------------------- sterile_filling
domain("sterile_filling",
       {"room_dp": (-50, 100), "isolator_pressure": (-500, 500), "room_temperature": (50, 100),
        "relative_humidity": (0, 100), "airflow_velocity": (0, 2), "laf_fan_speed": (0, 100),
        "particle_count": (0, 10000000), "n2_pressure": (0, 1000), "headspace_o2": (0, 25),
        "stopper_hold_time": (0, 10000000), "tunnel_temperature": (0, 400)},
       [("not be less than 10 Pa", lambda s: lt(s, "room_dp", 10), None),
        ("remains below 10 Pa for more than 3 min", lambda s: lt(s, "room_dp", 10), 180),
        ("shall remain between -150 Pa and -50 Pa", lambda s: outside(s, "isolator_pressure", -150, -50), None),
        ("shall be maintained between 18 deg C and 22 deg C",                          # deg C text -> degF
         lambda s: outside(s, "room_temperature", C2F(18), C2F(22)), None),
        ("shall be no higher than 55 %RH", lambda s: gt(s, "relative_humidity", 55), None),
        ("check the stopper feed for electrostatic charging", lambda s: lt(s, "relative_humidity", 30), None),
        ("stop the filling, except when the LAF fan speed",
         lambda s: AND(outside(s, "airflow_velocity", F("0.36"), F("0.54")), NOT(lt(s, "laf_fan_speed", 80))), None),
        ("exceeds 3,520 particles/m³", lambda s: gt(s, "particle_count", 3520), None),
        ("reject the vials filled since the last compliant check",                      # bar text -> kPa
         lambda s: OR(lt(s, "n2_pressure", 450), gt(s, "headspace_o2", 2)), None),
        ("is more than 72 h (3 days)", lambda s: gt(s, "stopper_hold_time", 72 * 3600), None),   # h text -> s
        ("shall not be below 300 degrees Celsius", lambda s: lt(s, "tunnel_temperature", 300), None)])

# ---------------------------------------------------------------- research_reactor
domain("research_reactor",
       {"fuel_temperature": (0, 1500), "reactor_power": (0, 150), "pool_level": (0, 12),
        "pool_temperature": (0, 100), "hx_dp": (-200, 200), "primary_flow": (0, 150),
        "secondary_flow": (0, 150), "conductivity": (0, 100), "ph": (0, 14)},
       [("shall not exceed 1,000 °C", lambda s: gt(s, "fuel_temperature", 1000), None),
        ("The reactor shall be scrammed if",
         lambda s: OR(ge(s, "reactor_power", 110), gt(s, "fuel_temperature", 600)), None),
        ("less than 16 ft above the top of the core", lambda s: lt(s, "pool_level", 16 * FT_M), None),   # ft -> m
        ("shall not be more than 45 °C", lambda s: gt(s, "pool_temperature", 45), None),
        ("has been above 40 °C for more than 15 minutes", lambda s: gt(s, "pool_temperature", 40), 900),
        ("greater than -0.2 bar", lambda s: gt(s, "hx_dp", -20), None),                 # bar text -> kPa
        ("the reactor shall be shut down within 10 minutes",
         lambda s: AND(lt(s, "primary_flow", 85), gt(s, "reactor_power", 10)), None),
        ("secondary coolant flow less than 70 %",
         lambda s: AND(lt(s, "secondary_flow", 70), NOT(le(s, "reactor_power", 1))), None),
        ("place the standby mixed-bed ion exchanger in service",
         lambda s: AND(gt(s, "conductivity", 2), NOT(gt(s, "pool_temperature", 50))), None),
        ("pH outside the range 5.0 to 7.5", lambda s: outside(s, "ph", 5, F("7.5")), None)])

# ---------------------------------------------------------------- chiller_plant
domain("chiller_plant",
       {"chwst": (-10, 40), "condenser_pressure": (0, 40), "chw_dp": (0, 500), "lead_pump_speed": (0, 100),
        "cwst": (-10, 50), "basin_temperature": (-30, 50), "basin_level": (0, 100), "oawb": (-40, 40),
        "it_load": (0, 120), "cold_aisle_temperature": (0, 50), "cold_aisle_dew_point": (-40, 40)},
       [("falls below 38 °F, the chiller shall stop", lambda s: lt(s, "chwst", F2C(38)), None),   # °F text -> degC
        ("exceeds 180 psi", lambda s: gt(s, "condenser_pressure", 180 * PSI_KPA / 100), None),   # psi -> bar
        ("greater than 68 °F (20 °C) for more than 5 minutes", lambda s: gt(s, "chwst", F2C(68)), 300),
        ("falls below 8 psi while the lead pump speed",                                          # psi -> kPa
         lambda s: AND(lt(s, "chw_dp", 8 * PSI_KPA), ge(s, "lead_pump_speed", 95)), None),
        ("shall not be reduced below 30 %", lambda s: lt(s, "lead_pump_speed", 30), None),
        ("drops below 55 °F", lambda s: lt(s, "cwst", F2C(55)), None),
        ("start the basin heaters when",
         lambda s: AND(lt(s, "basin_temperature", F2C(41)), NOT(lt(s, "basin_level", 30))), None),
        ("economizer shall be enabled",
         lambda s: AND(le(s, "oawb", F2C(40)), gt(s, "it_load", 20)), None),
        ("shall be held within 64.4 °F to 80.6 °F",
         lambda s: outside(s, "cold_aisle_temperature", F2C(F("64.4")), F2C(F("80.6"))), None),
        ("drops below 15.8 °F (-9 °C)", lambda s: lt(s, "cold_aisle_dew_point", F2C(F("15.8"))), None),
        ("Generate a critical alarm",
         lambda s: OR(gt(s, "cold_aisle_temperature", F2C(F("89.6"))), gt(s, "chwst", F2C(75))), None)])

# ---------------------------------------------------------------- clinical_lab
# blood gas limits in mmHg text -> kPa manifest (1 mmHg = 101.325/760 kPa; the conventional
# 0.133322387415 kPa differs by 2e-8 kPa, far from every query)
MMHG_KPA = F(101325, 760000)
domain("clinical_lab",
       {"potassium": (0, 15), "sodium": (80, 200), "glucose": (0, 60), "inr": (0, 20), "arterial_ph": (F("6.5"), 8),
        "pco2": (0, 30), "po2": (0, 100), "lactate": (0, 30), "haemoglobin": (0, 250),
        "fridge_temperature": (-20, 40), "freezer_temperature": (-80, 20)},
       [("less than 2.8 mmol/L or greater than 6.2 mmol/L",
         lambda s: OR(lt(s, "potassium", F("2.8")), gt(s, "potassium", F("6.2"))), None),
        ("less than 120 mmol/L or more than 160 mmol/L",
         lambda s: OR(lt(s, "sodium", 120), gt(s, "sodium", 160)), None),
        ("below 2.5 mmol/L or above 25.0 mmol/L",
         lambda s: OR(lt(s, "glucose", F("2.5")), gt(s, "glucose", 25)), None),
        ("INR: greater than 5.0", lambda s: gt(s, "inr", 5), None),
        ("lower than 7.20 or higher than 7.60",
         lambda s: OR(lt(s, "arterial_ph", F("7.2")), gt(s, "arterial_ph", F("7.6"))), None),
        ("Arterial pO2: less than 40 mmHg", lambda s: lt(s, "po2", 40 * MMHG_KPA), None),
        ("critical care outreach team",
         lambda s: AND(gt(s, "pco2", 70 * MMHG_KPA), lt(s, "arterial_ph", F("7.3"))), None),
        ("alert the sepsis team", lambda s: AND(ge(s, "lactate", 4), lt(s, "arterial_ph", F("7.35"))), None),
        ("Notify the on-call haematologist", lambda s: le(s, "haemoglobin", 60), None),
        ("page the duty haematology consultant", lambda s: AND(gt(s, "inr", 8), lt(s, "haemoglobin", 80)), None),
        ("Report INR results from 4.5 to 5.0", lambda s: between(s, "inr", F("4.5"), 5), None),
        ("remains outside 2 °C to 6 °C for more than 30 minutes", lambda s: outside(s, "fridge_temperature", 2, 6), 1800),
        ("Move the units to the back-up refrigerator", lambda s: gt(s, "fridge_temperature", 8), None),
        # constraint "shall be stored at a freezer temperature of -25 °C or lower": violated above -25
        ("-25 °C or lower", lambda s: gt(s, "freezer_temperature", -25), None),
        ("Call the estates duty engineer",
         lambda s: OR(gt(s, "freezer_temperature", -18), lt(s, "fridge_temperature", 1)), None)])

# ---------------------------------------------------------------- mine_ventilation
domain("mine_ventilation",
       {"methane": (0, 100), "return_methane": (0, 100), "oxygen": (0, 25), "co2": (0, 10), "co": (0, 1000),
        "face_velocity": (0, 20), "wet_bulb": (-10, 50), "intake_temperature": (-50, 50), "fan_pressure": (0, 6000)},
       [("When 1.0 percent or more methane is present", lambda s: ge(s, "methane", 1), None),
        ("De-energise all electrical equipment", lambda s: gt(s, "methane", F("1.25")), None),
        ("Withdraw all persons from the affected district", lambda s: ge(s, "methane", 2), None),
        # "Do not energise ... unless the methane concentration is not more than 1.0 %": fires when NOT(<= 1.0)
        ("Do not energise the continuous miner", lambda s: NOT(le(s, "methane", 1)), None),
        ("between 0.8 % and 1.5 %", lambda s: between(s, "return_methane", F("0.8"), F("1.5")), None),
        # "shall contain at least 19.5 percent oxygen and not more than 0.5 percent carbon dioxide": violated by either
        ("at least 19.5 percent", lambda s: OR(lt(s, "oxygen", F("19.5")), gt(s, "co2", F("0.5"))), None),
        ("shall be no more than 25 ppm", lambda s: gt(s, "co", 25), None),
        ("Evacuate the section", lambda s: OR(gt(s, "co", 50), lt(s, "oxygen", 18)), None),
        ("Minimum face air velocity", lambda s: lt(s, "face_velocity", F("0.3")), None),
        ("Maximum face air velocity", lambda s: gt(s, "face_velocity", 4), None),
        ("Introduce work-rest cycles",
         lambda s: AND(gt(s, "wet_bulb", 27), lt(s, "face_velocity", F("0.5"))), None),
        ("Start the shaft air heaters",                                                  # kPa text -> Pa
         lambda s: AND(lt(s, "intake_temperature", 2), NOT(lt(s, "fan_pressure", 500))), None),
        ("inspect the shaft guides", lambda s: between(s, "intake_temperature", -15, -5), None),
        ("stays below 1.2 kPa for more than 15 minutes", lambda s: lt(s, "fan_pressure", 1200), 900)])

# ---------------------------------------------------------------- lng_tank
# tank pressure: mbar text -> kPa manifest (1 mbar = 0.1 kPa); tank temperatures: °C text -> K manifest;
# BOG suction temperature: K text -> degC manifest (143 K = -130.15 °C)
domain("lng_tank",
       {"tank_pressure": (-10, 50), "bog_load": (0, 110), "liquid_level": (0, 100), "liquid_temperature": (90, 300),
        "slab_temperature": (230, 330), "annular_temperature": (90, 330), "bog_suction_temperature": (-180, 60),
        "roof_gas": (0, 100)},
       [("Open the pressure control valve to the flare", lambda s: gt(s, "tank_pressure", 26), None),
        ("remains above 230 mbar for more than 10 minutes", lambda s: gt(s, "tank_pressure", 23), 600),
        ("Never allow the tank pressure to fall below 30 mbar",
         lambda s: AND(lt(s, "tank_pressure", 3), gt(s, "bog_load", 50)), None),
        ("-3 mbar or lower", lambda s: le(s, "tank_pressure", F("-0.3")), None),
        ("The top fill valve shall be closed", lambda s: ge(s, "liquid_level", 90), None),
        ("Trip the send-out pumps", lambda s: lt(s, "liquid_level", 4), None),
        ("exceeds -158 °C", lambda s: gt(s, "liquid_temperature", C2K(-158)), None),
        ("switch on the base heating", lambda s: lt(s, "slab_temperature", C2K(5)), None),
        ("from -60 °C to -20 °C",
         lambda s: between(s, "annular_temperature", C2K(-60), C2K(-20)), None),
        ("Declare a major inner tank leak", lambda s: lt(s, "annular_temperature", C2K(-60)), None),
        ("Open the suction desuperheater spray",
         lambda s: gt(s, "bog_suction_temperature", F(143) - F("273.15")), None),
        ("Stop all hot work on the tank roof", lambda s: ge(s, "roof_gas", 10), None),
        ("Initiate ESD-1", lambda s: OR(gt(s, "roof_gas", 40), gt(s, "tank_pressure", 28)), None)])

# ---------------------------------------------------------------- wind_turbine
# wind speed: m/s text -> km/h manifest (x 3.6, exact); accumulator: bar text -> MPa; grid: V text -> kV;
# ambient: °C text -> degF manifest (-10/-20 °C = 14/-4 °F)
domain("wind_turbine",
       {"wind_speed": (0, 250), "rotor_speed": (0, 30), "generator_speed": (0, 2500),
        "gearbox_oil_temperature": (-40, 150), "gearbox_bearing_temperature": (-40, 150),
        "winding_temperature": (-40, 250), "accumulator_pressure": (0, 40), "grid_voltage": (0, F("1.5")),
        "nacelle_humidity": (0, 100), "ambient_temperature": (-60, 140)},
       [("Max. generator speed: 1,680 rpm", lambda s: gt(s, "generator_speed", 1680), None),
        ("Gearbox oil sump temperature: max. 80°C", lambda s: gt(s, "gearbox_oil_temperature", 80), None),
        ("Min. pitch accumulator pressure: 160bar", lambda s: lt(s, "accumulator_pressure", 16), None),
        # "The controller shall, if the 10-minute mean wind speed exceeds 25 m/s, pitch ..." (condition mid-sentence)
        ("pitch the blades to feather", lambda s: gt(s, "wind_speed", 25 * F("3.6")), None),
        ("remain above 20 m/s for more than 10 minutes", lambda s: gt(s, "wind_speed", 20 * F("3.6")), 600),
        ("rises above 14.8 rpm", lambda s: gt(s, "rotor_speed", F("14.8")), None),
        # "may only be applied when the rotor speed is below 2 rpm": violated (fires) at >= 2
        ("may only be applied when the rotor speed", lambda s: NOT(lt(s, "rotor_speed", 2)), None),
        ("switched to high speed", lambda s: ge(s, "gearbox_oil_temperature", 70), None),
        ("check the lubrication oil flow",
         lambda s: AND(gt(s, "gearbox_bearing_temperature", 90), lt(s, "gearbox_oil_temperature", 60)), None),
        ("130–145 °C", lambda s: between(s, "winding_temperature", 130, 145), None),
        ("exceeds 145 °C", lambda s: gt(s, "winding_temperature", 145), None),
        ("Disconnect the generator from the grid",
         lambda s: OR(lt(s, "grid_voltage", F("0.621")), gt(s, "grid_voltage", F("0.759"))), None),
        ("Run the nacelle dehumidifier",
         lambda s: AND(gt(s, "nacelle_humidity", 70), NOT(lt(s, "ambient_temperature", C2F(-10)))), None),
        ("falls below -20 °C", lambda s: lt(s, "ambient_temperature", C2F(-20)), None),
        ("No person shall enter the rotor hub", lambda s: gt(s, "wind_speed", 15 * F("3.6")), None)])

# ---------------------------------------------------------------- haccp_cook_chill
# core and freezer temperatures: °C text -> degF manifest (75/-18 °C = 167/-0.4 °F); steam: bar -> kPa;
# door open time: min text -> s manifest
domain("haccp_cook_chill",
       {"core_temperature": (-40, 250), "hot_hold_temperature": (0, 120), "oven_temperature": (0, 350),
        "polar_compounds": (0, 100), "steam_pressure": (0, 1000), "free_chlorine": (0, 1000),
        "wash_water_temperature": (0, 60), "sauce_ph": (0, 14), "store_temperature": (-10, 40),
        "door_open_time": (0, 86400), "freezer_temperature": (-60, 60)},
       [("shall be not less than 75 °C", lambda s: lt(s, "core_temperature", C2F(75)), None),
        # "If core < 75 °C, return ... and re-cook it, provided that the hot holding cabinet temperature is at least 63 °C"
        ("return the batch to the oven",
         lambda s: AND(lt(s, "core_temperature", C2F(75)), ge(s, "hot_hold_temperature", 63)), None),
        ("spiral oven is to be stopped", lambda s: lt(s, "oven_temperature", 180), None),
        ("must be at least 63°C", lambda s: lt(s, "hot_hold_temperature", 63), None),
        ("No fryer oil shall be used", lambda s: gt(s, "polar_compounds", 24), None),
        ("is not to exceed 3bar", lambda s: gt(s, "steam_pressure", 300), None),
        ("free chlorine: min. 50 ppm", lambda s: lt(s, "free_chlorine", 50), None),
        ("free chlorine: max. 200 ppm", lambda s: gt(s, "free_chlorine", 200), None),
        ("Stop the wash line",
         lambda s: OR(lt(s, "free_chlorine", 25), gt(s, "wash_water_temperature", 12)), None),
        # "Only release ... when its equilibrium pH is below 4.2": violated (fires) at >= 4.2
        ("Only release a batch of cook-in sauce", lambda s: NOT(lt(s, "sauce_ph", F("4.2"))), None),
        ("shall be maintained at 0–5 °C", lambda s: outside(s, "store_temperature", 0, 5), None),
        ("remains above 8 °C for more than 45 minutes", lambda s: gt(s, "store_temperature", 8), 2700),
        ("Sound the chilled store high temperature alarm",
         lambda s: AND(gt(s, "store_temperature", 6), NOT(lt(s, "door_open_time", 180))), None),
        ("shall not rise above -18 °C", lambda s: gt(s, "freezer_temperature", C2F(-18)), None)])

# ---------------------------------------------------------------- haemodialysis
# TMP: mmHg text -> kPa manifest (300/450 mmHg = 39.99671/59.99507 kPa, inexact); dialysate temperature:
# °C text -> degF manifest (35.0/39.0 °C = 95/102.2 °F)
domain("haemodialysis",
       {"venous_pressure": (-100, 600), "arterial_pressure": (-500, 300), "blood_flow": (0, 700), "tmp": (-20, 100),
        "dialysate_temperature": (50, 120), "conductivity": (0, 30), "systolic_pressure": (0, 300), "ktv": (0, 5)},
       [("rise above 300 mmHg", lambda s: gt(s, "venous_pressure", 300), None),
        ("checked for dislodgement", lambda s: lt(s, "venous_pressure", 20), None),
        ("falls below -250 mmHg", lambda s: lt(s, "arterial_pressure", -250), None),
        ("Reduce the blood flow to 250 mL/min",
         lambda s: AND(lt(s, "arterial_pressure", -200), NOT(le(s, "blood_flow", 250))), None),
        ("remains higher than 300 mmHg for more than 60 s", lambda s: gt(s, "tmp", 300 * MMHG_KPA), 60),
        ("exceeds 450 mmHg", lambda s: gt(s, "tmp", 450 * MMHG_KPA), None),
        ("Dialysate temperature: min. 35.0 °C, max. 39.0 °C",
         lambda s: outside(s, "dialysate_temperature", C2F(35), C2F(39)), None),
        ("diverted to drain",
         lambda s: OR(lt(s, "conductivity", 13), gt(s, "conductivity", 15)), None),
        ("falls below 90 mmHg", lambda s: lt(s, "systolic_pressure", 90), None),
        ("Review the prescription with the nephrologist", lambda s: lt(s, "ktv", F("1.2")), None)])

# ---------------------------------------------------------------- gas_cabinet
# psig text -> kPa manifest (cylinder, SDS, purge: 150/1,600/80/-14.0/-0.5 psig = 1034.2136/11031.6117/
# 551.5806/-96.5266/-3.4474 kPa) and -> bar manifest (delivery: 60/25 psig = 4.13685/1.72369 bar);
# Pa text -> kPa manifest (exhaust: -250/-125 Pa = -0.25/-0.125 kPa); °C text -> degF manifest
# (750/18 °C = 1382/64.4 °F; 52 °C = 125.6 °F while the bracket says 125 °F: tested only where both agree)
PSI_BAR = PSI_KPA / 100
PSI_MPA = PSI_KPA / 1000
domain("gas_cabinet",
       {"silane_concentration": (0, 100), "arsine_concentration": (0, 1000), "phosphine_concentration": (0, 20),
        "exhaust_static_pressure": (-2, F("0.5")), "cylinder_pressure": (0, 15000),
        "sds_cylinder_pressure": (-101, 50), "delivery_pressure": (0, 20), "purge_nitrogen_pressure": (0, 1500),
        "combustion_chamber_temperature": (0, 2500), "cylinder_temperature": (-40, 200), "mass_flow": (0, 150)},
       [("greater than or equal to 2.5 ppm", lambda s: ge(s, "silane_concentration", F("2.5")), None),
        ("exceeds 5 ppm (HIGH alarm)", lambda s: gt(s, "silane_concentration", 5), None),
        ("at or above 5 ppb", lambda s: ge(s, "arsine_concentration", 5), None),
        ("in excess of 10 ppb", lambda s: gt(s, "arsine_concentration", 10), None),
        ("PH3 > 0.3 ppm", lambda s: gt(s, "phosphine_concentration", F("0.3")), None),
        # constraint "must be kept below -250 Pa": violated at >= -0.25 kPa
        ("must be kept below -250 Pa", lambda s: ge(s, "exhaust_static_pressure", F("-0.25")), None),
        ("rises above -125 Pa for longer than 10 seconds", lambda s: gt(s, "exhaust_static_pressure", F("-0.125")), 10),
        ("Evacuate the gas room if the silane concentration",
         lambda s: AND(ge(s, "silane_concentration", 1), gt(s, "exhaust_static_pressure", F("-0.125"))), None),
        ("Do not connect a silane cylinder", lambda s: gt(s, "cylinder_pressure", 1600 * PSI_KPA), None),
        ("switches to the reserve cylinder", lambda s: lt(s, "cylinder_pressure", 150 * PSI_KPA), None),
        ("goes above 60 psig", lambda s: gt(s, "delivery_pressure", 60 * PSI_BAR), None),
        # constraint "shall be a minimum of 80 psig": violated below 80 psig
        ("shall be a minimum of 80 psig", lambda s: lt(s, "purge_nitrogen_pressure", 80 * PSI_KPA), None),
        ("in the range of -14.0 psig", lambda s: outside(s, "sds_cylinder_pressure", -14 * PSI_KPA, F("-0.5") * PSI_KPA), None),
        ("interlocked off while", lambda s: lt(s, "combustion_chamber_temperature", C2F(750)), None),
        ("Do not allow the cylinder temperature to exceed", lambda s: gt(s, "cylinder_temperature", C2F(52)), None),
        ("Energise the heater jacket",
         lambda s: AND(lt(s, "cylinder_temperature", C2F(18)), NOT(ge(s, "delivery_pressure", 25 * PSI_BAR))), None),
        ("An excess-flow condition exists", lambda s: gt(s, "mass_flow", 120), None)])

# ---------------------------------------------------------------- well_control
# volumes: m³ text (bbl in brackets, tested only where both readings agree) -> m³ manifest; psi text ->
# bar manifest (1,850/5,000/2,000 psi = 127.5530/344.7379/137.8951 bar) and -> MPa (1,200 psi = 8.27371 MPa);
# ft text -> m (3,000 ft = 914.4 m); °F text -> degC (150/90 °F = 65.5556/32.2222 °C)
domain("well_control",
       {"pit_gain": (-50, 50), "flow_out": (0, 200), "bit_depth": (0, 10000), "trip_tank_discrepancy": (0, 20),
        "kick_tolerance": (0, 100), "casing_pressure": (0, 1100), "standpipe_pressure": (0, 700),
        "accumulator_pressure": (0, 40), "total_gas": (0, 10000), "h2s": (0, 500), "mud_weight": (6, 22),
        "mud_ph": (0, 14), "flowline_temperature": (-20, 150), "pit_temperature": (-20, 150)},
       [("0.8 m³ (5 bbl) or more", lambda s: ge(s, "pit_gain", F("0.8")), None),
        ("amounts to 1.6 m³ (10 bbl) or more", lambda s: ge(s, "pit_gain", F("1.6")), None),
        ("A flow-out of more than 110 %", lambda s: gt(s, "flow_out", 110), None),
        # "The trip tank discrepancy is limited to 0.3 m³ (2 bbl)": violated above 0.3
        ("trip tank discrepancy is limited to", lambda s: gt(s, "trip_tank_discrepancy", F("0.3")), None),
        ("Drilling shall not continue if the kick tolerance", lambda s: lt(s, "kick_tolerance", 4), None),
        ("divert the well overboard",
         lambda s: AND(gt(s, "flow_out", 105), lt(s, "bit_depth", 3000 * FT_M)), None),
        ("falls below -4 m³", lambda s: lt(s, "pit_gain", -4), None),
        ("must not exceed the MAASP of 1,850 psi", lambda s: gt(s, "casing_pressure", 1850 * PSI_BAR), None),
        ("Maximum standpipe pressure", lambda s: gt(s, "standpipe_pressure", 5000 * PSI_BAR), None),
        ("for a washout", lambda s: lt(s, "standpipe_pressure", 2000 * PSI_BAR), None),
        ("shall at no time be less than", lambda s: lt(s, "accumulator_pressure", 1200 * PSI_MPA), None),
        ("continuously for more than 20 minutes", lambda s: gt(s, "total_gas", 300), 1200),
        ("exceeds 1,000 units", lambda s: gt(s, "total_gas", 1000), None),
        ("detected at 10 ppm or above", lambda s: ge(s, "h2s", 10), None),
        ("greater than 20 ppm, shut in the well", lambda s: gt(s, "h2s", 20), None),
        # "shall be kept above 10.5 lb/gal": violated at <= 10.5
        ("shall be kept above 10.5 lb/gal", lambda s: le(s, "mud_weight", F("10.5")), None),
        ("held in the range 10.0 to 11.5", lambda s: outside(s, "mud_ph", 10, F("11.5")), None),
        ("Run the mud coolers",
         lambda s: AND(gt(s, "flowline_temperature", F2C(150)), NOT(lt(s, "pit_temperature", F2C(90)))), None)])

# ---------------------------------------------------------------- data_centre
# °F text -> degC manifest (75/60/70 °F = 23.8889/15.5556/21.1111 °C; 59/41/14 °F = 15/5/-10 °C exactly);
# °C text -> degF manifest for the rack inlet (27/35/15 °C = 80.6/95/59 °F); min text -> s (8 min = 480 s);
# h text -> min (24/48 h = 1440/2880 min); V text -> kV (10,450/11,550 V = 10.45/11.55 kV)
domain("data_centre",
       {"crah_supply_air_temperature": (0, 50), "running_crah_units": (0, 12), "rack_inlet_temperature": (32, 140),
        "chws_temperature": (0, 40), "outside_air_temperature": (-40, 50), "relative_humidity": (0, 100),
        "dew_point": (-40, 40), "ups_load": (0, 150), "ups_battery_temperature": (-10, 70),
        "battery_runtime": (0, 36000), "utility_voltage": (0, 15), "pdu_phase_current": (0, 63),
        "fuel_autonomy": (0, 20000), "generator_coolant_temperature": (-30, 130)},
       [("exceeds 75 °F", lambda s: gt(s, "crah_supply_air_temperature", F2C(75)), None),
        ("Do not let the CRAH supply air temperature drop below",
         lambda s: lt(s, "crah_supply_air_temperature", F2C(59)), None),
        ("fewer than 4 CRAH units", lambda s: lt(s, "running_crah_units", 4), None),
        ("persists above 27 °C (80.6 °F) for more than 15 minutes", lambda s: gt(s, "rack_inlet_temperature", C2F(27)), 900),
        ("Begin shedding non-critical IT load", lambda s: gt(s, "rack_inlet_temperature", C2F(35)), None),
        ("A rack inlet temperature under 15 °C", lambda s: lt(s, "rack_inlet_temperature", C2F(15)), None),
        ("start the standby chiller",
         lambda s: AND(gt(s, "chws_temperature", F2C(60)), NOT(lt(s, "outside_air_temperature", F2C(41)))), None),
        ("Switch the humidifiers on",
         lambda s: AND(lt(s, "relative_humidity", 20), lt(s, "dew_point", -9)), None),
        # "must remain at or below 45 %": violated above 45
        ("must remain at or below 45 %", lambda s: gt(s, "ups_load", 45), None),
        ("equal to or higher than 35 °C", lambda s: ge(s, "ups_battery_temperature", 35), None),
        ("Start the load-shedding procedure", lambda s: lt(s, "battery_runtime", 8 * 60), None),
        ("Transfer the critical load to the generators",
         lambda s: outside(s, "utility_voltage", F("10.45"), F("11.55")), None),
        ("exceeds 25.6 A", lambda s: gt(s, "pdu_phase_current", F("25.6")), None),
        ("Order an emergency fuel delivery", lambda s: lt(s, "fuel_autonomy", 24 * 60), None),
        ("must never be less than 48 hours", lambda s: lt(s, "fuel_autonomy", 48 * 60), None),
        ("Check the generator block heaters",
         lambda s: AND(lt(s, "generator_coolant_temperature", F2C(70)),
                       lt(s, "outside_air_temperature", F2C(14))), None)])

# ---------------------------------------------------------------- anaesthesia_workstation
# mmHg text -> kPa manifest (EtCO2: 50/8/60 mmHg = 6.666118/1.066579/7.999342 kPa; normal 35–45 mmHg =
# 4.6663–5.9995 kPa); psi text -> kPa (35 psi = 241.31650 kPa); °C text -> degF (36.0/38.5 °C = 96.8/101.3 °F);
# min text -> s (10 min = 600 s); cmH2O identical in text and manifest
domain("anaesthesia_workstation",
       {"etco2": (0, 20), "spo2": (0, 100), "fio2": (0, 100), "mac": (0, 5), "paw_peak": (-20, 120),
        "o2_pipeline_pressure": (0, 1000), "heart_rate": (0, 300), "systolic_pressure": (0, 300),
        "core_temperature": (77, 113), "battery_time": (0, 36000), "tof_ratio": (0, F("1.5"))},
       [("climbs above 50 mmHg", lambda s: gt(s, "etco2", 50 * MMHG_KPA), None),
        ("for over 30 seconds", lambda s: lt(s, "etco2", 8 * MMHG_KPA), 30),
        ("Any SpO2 reading below 90 %", lambda s: lt(s, "spo2", 90), None),
        # "is not permitted to fall below 25 %": violated below 25
        ("not permitted to fall below 25 %", lambda s: lt(s, "fio2", 25), None),
        # "should not exceed 1.5": violated above 1.5
        ("should not exceed 1.5", lambda s: gt(s, "mac", F("1.5")), None),
        ("drops to 0.7 or below", lambda s: le(s, "mac", F("0.7")), None),
        ("exceeding 40 cmH2O", lambda s: gt(s, "paw_peak", 40), None),
        ("reads less than 35 psi", lambda s: lt(s, "o2_pipeline_pressure", 35 * PSI_KPA), None),
        ("140 bpm and above", lambda s: ge(s, "heart_rate", 140), None),
        ("Give atropine 0.5 mg", lambda s: AND(lt(s, "heart_rate", 45), lt(s, "systolic_pressure", 90)), None),
        # "must remain greater than 36.0 °C": violated at <= 96.8 °F
        ("must remain greater than 36.0 °C", lambda s: le(s, "core_temperature", C2F(36)), None),
        ("Suspect malignant hyperthermia",
         lambda s: AND(gt(s, "core_temperature", C2F(F("38.5"))), gt(s, "etco2", 60 * MMHG_KPA)), None),
        ("10 minutes or under", lambda s: le(s, "battery_time", 600), None),
        ("Do not extubate the patient", lambda s: lt(s, "tof_ratio", F("0.9")), None)])

# ---------------------------------------------------------------- tunnel_ventilation
# °C text -> degF manifest (32/40/35/28 °C = 89.6/104/95/82.4 °F); m/s text -> km/h (2.5 m/s = 9 km/h);
# V text -> kV (500/900 V = 0.5/0.9 kV); kA text -> A (6 kA = 6000 A); °C text -> K (150 °C = 423.15 K);
# kΩ text -> MOhm (100 kΩ = 0.1 MOhm); rail potential V identical
domain("tunnel_ventilation",
       {"tunnel_air_temperature": (-40, 160), "outside_air_temperature": (-40, 50), "co_concentration": (0, 1000),
        "tunnel_air_velocity": (0, 100), "fan_vibration": (0, 50), "line_voltage": (0, 2),
        "feeder_current": (0, 20000), "transformer_winding_temperature": (200, 500),
        "insulation_resistance": (0, 1000), "rail_potential": (-1000, 1000)},
       [("passes 32 °C", lambda s: gt(s, "tunnel_air_temperature", C2F(32)), None),
        ("40 °C and higher", lambda s: ge(s, "tunnel_air_temperature", C2F(40)), None),
        ("Switch the shaft dampers to extract",
         lambda s: AND(gt(s, "tunnel_air_temperature", C2F(35)), lt(s, "outside_air_temperature", 25)), None),
        ("lies between 35 and", lambda s: between(s, "co_concentration", 35, 100), None),
        ("reach or exceed 100 ppm", lambda s: ge(s, "co_concentration", 100), None),
        # "keep the tunnel air velocity at or above 2.5 m/s": violated below 9 km/h
        ("keep the tunnel air velocity at or above", lambda s: lt(s, "tunnel_air_velocity", F("2.5") * F("3.6")), None),
        ("greater than 7.1 mm/s", lambda s: gt(s, "fan_vibration", F("7.1")), None),
        # "must be kept in the band 500 V to 900 V": violated outside 0.5–0.9 kV
        ("kept in the band 500 V to 900 V", lambda s: outside(s, "line_voltage", F("0.5"), F("0.9")), None),
        ("greater than 6 kA", lambda s: gt(s, "feeder_current", 6000), None),
        ("may not exceed 150 °C", lambda s: gt(s, "transformer_winding_temperature", C2K(150)), None),
        ("lower than 100 kΩ", lambda s: lt(s, "insulation_resistance", F("0.1")), None),
        ("for a period exceeding 5 s", lambda s: gt(s, "rail_potential", 120), 5)])

# ---------------------------------------------------------------- bioreactor
# °C text -> degF manifest (36.5/37.5/38.0/37.0/38.4 °C = 97.7/99.5/100.4/98.6/101.12 °F); °C text -> K
# (121.0 °C = 394.15 K); bar text -> mbar (0.8/0.2 bar = 800/200 mbar); mmHg text -> kPa (150 mmHg = 19.998355 kPa)
domain("bioreactor",
       {"culture_temperature": (50, 140), "ph": (0, 14), "dissolved_oxygen": (0, 200),
        "headspace_pressure": (-100, 3000), "agitator_speed": (0, 500), "pco2": (0, 50), "glucose": (0, 50),
        "lactate": (0, 50), "viability": (0, 100), "sip_temperature": (273, 420)},
       [("maintained within 36.5 °C to 37.5 °C",
         lambda s: outside(s, "culture_temperature", C2F(F("36.5")), C2F(F("37.5"))), None),
        ("A pH < 6.80 or > 7.20", lambda s: OR(lt(s, "ph", F("6.8")), gt(s, "ph", F("7.2"))), None),
        ("DO values of 20 % or lower", lambda s: le(s, "dissolved_oxygen", 20), None),
        ("If a headspace pressure of 0.8 bar is exceeded", lambda s: gt(s, "headspace_pressure", 800), None),
        # "must not be increased beyond 150 rpm": violated above 150
        ("must not be increased beyond 150 rpm", lambda s: gt(s, "agitator_speed", 150), None),
        ("pCO2 values greater than 150 mmHg", lambda s: gt(s, "pco2", 150 * MMHG_KPA), None),
        ("drops to below 2.0 g/L", lambda s: lt(s, "glucose", 2), None),
        ("reduce the glucose feed rate by half", lambda s: AND(gt(s, "lactate", F("2.5")), gt(s, "glucose", 4)), None),
        ("viability has fallen below 80 %", lambda s: lt(s, "viability", 80), None),
        ("sustained for more than 10 minutes", lambda s: gt(s, "culture_temperature", C2F(38)), 600),
        ("Restart the 30-minute hold", lambda s: lt(s, "sip_temperature", C2K(121)), None)])

# ---------------------------------------------------------------- rocket_test_stand
# psi text -> MPa manifest for the chamber pressure (1,150/200 psi = 7.928971/1.378951 MPa; nominal
# 1,000 psi = 6.894757, T+2 s 900 psi = 6.205282, T-10 s 15 psi = 0.103421), -> bar for the LOX tank and
# purge pressures (45/120/400 psi = 3.102641/8.273709/27.579029 bar; T-120 s 75 psi = 5.171068, T-60 s
# 450 psi = 31.026408), -> kPa for the fuel tank pressure (95/50/80/55 psi = 655.001943/344.737865/
# 551.580583/379.211651 kPa; T-120 s 65 psi = 448.159224); °F text -> degC for the bearing temperature
# (250 °F = 121.111 °C, typical peak 180 °F = 82.222 °C); °C text -> K for the injector temperatures
# (95 °C = 368.15 K, -150 °C = 123.15 K, T-30 s -160 °C = 113.15 K); K text -> degC for the LOX tank
# temperature (95 K = -178.15 °C); g, rpm and ratio identical in text and manifest
domain("rocket_test_stand",
       {"chamber_pressure": (0, 20), "turbopump_speed": (0, 50000), "turbopump_vibration": (0, 200),
        "turbopump_bearing_temperature": (-50, 300), "lox_tank_pressure": (0, 20), "fuel_tank_pressure": (0, 2000),
        "lox_tank_temperature": (-220, 50), "lox_injector_temperature": (40, 400),
        "fuel_injector_temperature": (200, 800), "mixture_ratio": (0, 10), "purge_pressure": (0, 500)},
       [("Maximum chamber pressure (PT-104/PT-105): 1,150 psi", lambda s: gt(s, "chamber_pressure", 1150 * PSI_MPA), None),
        ("Maximum turbopump speed (SE-301): 36,500 rpm", lambda s: gt(s, "turbopump_speed", 36500), None),
        ("Minimum LOX tank pressure (PT-201): 45 psi", lambda s: lt(s, "lox_tank_pressure", 45 * PSI_BAR), None),
        ("Maximum turbopump bearing temperature (TT-310): 250 °F",
         lambda s: gt(s, "turbopump_bearing_temperature", F2C(250)), None),
        ("38,000 rpm or more trips the independent overspeed relay", lambda s: ge(s, "turbopump_speed", 38000), None),
        ("exceeds 20 g while the turbopump speed is above 30,000 rpm",
         lambda s: AND(gt(s, "turbopump_vibration", 20), gt(s, "turbopump_speed", 30000)), None),
        ("has exceeded 12 g for more than 0.5 s", lambda s: gt(s, "turbopump_vibration", 12), F("0.5")),
        # unless: chamber pressure absent / NaN -> no fire
        ("Shut down the engine if the fuel injector temperature exceeds 95 °C",
         lambda s: AND(gt(s, "fuel_injector_temperature", C2K(95)),
                       NOT(lt(s, "chamber_pressure", 200 * PSI_MPA))), None),
        ("Initiate a safe shutdown",
         lambda s: OR(gt(s, "lox_tank_pressure", 120 * PSI_BAR), gt(s, "fuel_tank_pressure", 95 * PSI_KPA)), None),
        ("Reduce the throttle setting to 80 %",
         lambda s: AND(between(s, "turbopump_speed", 34000, 36500), lt(s, "fuel_tank_pressure", 55 * PSI_KPA)), None),
        # "shall be maintained between 50 psi and 80 psi": violated outside
        ("shall be maintained between 50 psi and 80 psi",
         lambda s: outside(s, "fuel_tank_pressure", 50 * PSI_KPA, 80 * PSI_KPA), None),
        ("A mixture ratio outside 2.2 to 2.8", lambda s: outside(s, "mixture_ratio", F("2.2"), F("2.8")), None),
        # "must not drop below 400 psi": violated below
        ("must not drop below 400 psi", lambda s: lt(s, "purge_pressure", 400 * PSI_BAR), None),
        ("is higher than -150 °C", lambda s: gt(s, "lox_injector_temperature", C2K(-150)), None),
        ("exceeds 95 K", lambda s: gt(s, "lox_tank_temperature", 95 - F("273.15")), None)])

# ---------------------------------------------------------------- neonatal_incubator
# °C text -> degF manifest for the air and ambient temperatures (38.0/30.0/32/34.0/-10/+40 °C =
# 100.4/86/89.6/93.2/14/104 °F; settable 20–37 °C = 68–98.6 °F; history 38.5 °C = 101.3 °F); °C text -> K
# for the mattress (40 °C = 313.15 K); min text -> s for the battery (20/90 min = 1200/5400 s); skin
# temperature degC identical; body weight g identical (`5 kg` = 5000 g in a descriptive sentence)
domain("neonatal_incubator",
       {"air_temperature": (50, 122), "skin_temperature": (25, 45), "mattress_temperature": (273, 333),
        "relative_humidity": (0, 100), "o2_concentration": (0, 100), "spo2": (0, 100), "pulse_rate": (0, 300),
        "battery_time": (0, 36000), "ambient_temperature": (-40, 140), "body_weight": (300, 10000)},
       [("exceeds 38.0 °C", lambda s: gt(s, "air_temperature", C2F(38)), None),
        ("stays below 30.0 °C for more than 10 minutes", lambda s: lt(s, "air_temperature", C2F(30)), 600),
        ("37.8 °C or higher", lambda s: ge(s, "skin_temperature", F("37.8")), None),
        ("A skin temperature below 36.0 °C", lambda s: lt(s, "skin_temperature", 36), None),
        # unless: air temperature absent / NaN -> no fire
        ("Reduce the air temperature set value by 0.5 °C",
         lambda s: AND(gt(s, "skin_temperature", F("37.5")), NOT(le(s, "air_temperature", C2F(34)))), None),
        # "shall not be above 40 °C": violated above
        ("shall not be above 40 °C", lambda s: gt(s, "mattress_temperature", C2K(40)), None),
        ("outside the range 40 % to 85 %", lambda s: outside(s, "relative_humidity", 40, 85), None),
        ("lower the humidity setting",
         lambda s: AND(gt(s, "relative_humidity", 80), lt(s, "air_temperature", C2F(32))), None),
        # "For infants with a body weight of less than 1,000 g, the relative humidity shall be at least 70 %"
        ("body weight of less than 1,000 g",
         lambda s: AND(lt(s, "body_weight", 1000), lt(s, "relative_humidity", 70)), None),
        # except: SpO2 absent / NaN -> no fire
        ("Stop the supplemental oxygen",
         lambda s: AND(gt(s, "o2_concentration", 40), NOT(lt(s, "spo2", 90))), None),
        ("An O2 concentration of less than 18 %", lambda s: lt(s, "o2_concentration", 18), None),
        ("Increase the O2 set value in steps of 5 %",
         lambda s: AND(lt(s, "spo2", 88), le(s, "o2_concentration", 40)), None),
        ("Call the neonatologist", lambda s: OR(lt(s, "pulse_rate", 80), gt(s, "pulse_rate", 200)), None),
        ("less than 20 min", lambda s: lt(s, "battery_time", 1200), None),
        ("below -10 °C or above +40 °C",
         lambda s: OR(lt(s, "ambient_temperature", C2F(-10)), gt(s, "ambient_temperature", C2F(40))), None)])

# ---------------------------------------------------------------- electrolyser_plant
# kA text -> A manifest (4.5/3.0 kA = 4500/3000 A; nominal 4.0 kA = 4000 A); mV text -> V (2,200 mV =
# 2.2 V); V text -> kV (400 V = 0.4 kV); °C text -> degF for the stack temperature (80/5 °C = 176/41 °F;
# start-up 55 °C = 131 °F) and the dew point (-65/-40/-70 °C = -85/-40/-94 °F); mm text -> m (350 mm =
# 0.35 m); mbar text -> kPa (20/150 mbar = 2/15 kPa); bar text -> MPa (32 bar = 3.2 MPa; nominal 30 bar =
# 3.0, PSV 35 bar = 3.5); `% LEL` read as percent; µS/cm identical
domain("electrolyser_plant",
       {"stack_current": (0, 6000), "stack_voltage": (0, 2), "cell_voltage": (0, 5), "stack_temperature": (-40, 250),
        "h2_in_o2": (0, 10), "enclosure_h2": (0, 100), "o2_separator_level": (0, 3), "h2_separator_level": (0, 100),
        "water_conductivity": (0, 50), "o2_separator_pressure": (-10, 100), "dew_point": (-150, 100),
        "h2_outlet_pressure": (0, 5)},
       [# "shall never be higher than 4.5 kA": violated above
        ("shall never be higher than 4.5 kA", lambda s: gt(s, "stack_current", 4500), None),
        ("greater than 2,200 mV", lambda s: gt(s, "cell_voltage", F("2.2")), None),
        ("The rectifier is tripped when the stack voltage drops below 400 V",
         lambda s: AND(lt(s, "stack_voltage", F("0.4")), gt(s, "stack_current", 3000)), None),
        ("must not exceed 80 °C", lambda s: gt(s, "stack_temperature", C2F(80)), None),
        # except: stack current absent / NaN -> no fire
        ("Open the stack drain valve",
         lambda s: AND(lt(s, "stack_temperature", C2F(5)), NOT(gt(s, "stack_current", 100))), None),
        ("rises above 1.0 %", lambda s: gt(s, "h2_in_o2", 1), None),
        ("An H2-in-O2 concentration of 2.0 % or more", lambda s: ge(s, "h2_in_o2", 2), None),
        ("exceeds 10 % LEL", lambda s: gt(s, "enclosure_h2", 10), None),
        ("25 % LEL or more", lambda s: ge(s, "enclosure_h2", 25), None),
        ("level falls below 350 mm", lambda s: lt(s, "o2_separator_level", F("0.35")), None),
        # "shall be kept within 30 % to 70 %": violated outside
        ("shall be kept within 30 % to 70 %", lambda s: outside(s, "h2_separator_level", 30, 70), None),
        ("85 % or higher, close the water return valve", lambda s: ge(s, "h2_separator_level", 85), None),
        ("exceeds 1.0 µS/cm", lambda s: gt(s, "water_conductivity", 1), None),
        # a rule whose only condition is an unless: fires at >= 0.5, not when conductivity is absent / NaN
        ("Do not start hydrogen production", lambda s: NOT(lt(s, "water_conductivity", F("0.5"))), None),
        # "shall be held between 20 mbar and 150 mbar": violated outside 2–15 kPa
        ("shall be held between 20 mbar and 150 mbar", lambda s: outside(s, "o2_separator_pressure", 2, 15), None),
        ("remains higher than -65 °C for more than 5 minutes", lambda s: gt(s, "dew_point", C2F(-65)), 300),
        # "Hydrogen with a dew point higher than -40 °C must not be delivered": fires above -40 °F (= -40 °C)
        ("dew point higher than -40 °C must not be delivered", lambda s: gt(s, "dew_point", C2F(-40)), None),
        ("Maximum hydrogen outlet pressure: 32 bar", lambda s: gt(s, "h2_outlet_pressure", F("3.2")), None)])

# ---------------------------------------------------------------- helicopter_transmission
# °C text -> degF manifest for the TGT (880/900 °C = 1616/1652 °F; history 870 °C = 1598 °F), the MGB oil
# temperature (115/110/105/100/10 °C = 239/230/221/212/50 °F; normal range 50–100 °C = 122–212 °F) and the OAT
# (-35/40 °C = -31/104 °F); bar text -> kPa (1.5/6.5/1.0 bar = 150/650/100 kPa); kt text -> km/h (150 kt =
# 277.8 km/h; cruise 130 kt = 240.76, procedure 70 kt = 129.64); torque, NR percent; chip count plain
domain("helicopter_transmission",
       {"torque": (0, 150), "rotor_speed": (0, 130), "tgt": (-60, 2000), "mgb_oil_pressure": (0, 1000),
        "mgb_oil_temperature": (-60, 350), "chip_detector_count": (0, 50), "airspeed": (0, 500),
        "outside_air_temperature": (-80, 140)},
       [("Do not exceed an indicated airspeed of 150 kt", lambda s: gt(s, "airspeed", 150 * KT_KMH), None),
        # dotted red-line lines "X, maximum ..... N" / "X, minimum ..... N"
        ("Torque, maximum", lambda s: gt(s, "torque", 110), None),
        ("TGT, maximum", lambda s: gt(s, "tgt", C2F(880)), None),
        ("MGB oil pressure, minimum", lambda s: lt(s, "mgb_oil_pressure", 150), None),
        ("MGB oil pressure, maximum", lambda s: gt(s, "mgb_oil_pressure", 650), None),
        ("MGB oil temperature, maximum", lambda s: gt(s, "mgb_oil_temperature", C2F(115)), None),
        ("Operation with a torque above 100 % for more than 5 minutes is prohibited",
         lambda s: gt(s, "torque", 100), 300),
        ("Do not apply more than 70 % torque",
         lambda s: AND(gt(s, "torque", 70), lt(s, "mgb_oil_temperature", C2F(10))), None),
        ("Engine starts are not permitted", lambda s: lt(s, "outside_air_temperature", C2F(-35)), None),
        ("power on, maximum", lambda s: gt(s, "rotor_speed", 104), None),
        ("power on, minimum", lambda s: lt(s, "rotor_speed", 97), None),
        ("power off, maximum", lambda s: gt(s, "rotor_speed", 110), None),
        ("is or becomes less than 1.0 bar", lambda s: lt(s, "mgb_oil_pressure", 100), None),
        ("LAND IMMEDIATELY if the MGB oil temperature exceeds 110 °C",
         lambda s: AND(gt(s, "mgb_oil_temperature", C2F(110)), lt(s, "mgb_oil_pressure", 150)), None),
        # unless: oil pressure absent / NaN -> no fire
        ("LAND AS SOON AS PRACTICABLE if the MGB oil temperature is within",
         lambda s: AND(between(s, "mgb_oil_temperature", C2F(100), C2F(110)),
                       NOT(lt(s, "mgb_oil_pressure", 150))), None),
        # except: OAT absent / NaN -> no fire
        ("Reduce torque to 80 % or less",
         lambda s: AND(gt(s, "mgb_oil_temperature", C2F(105)), NOT(gt(s, "outside_air_temperature", C2F(40)))), None),
        ("chip detector count increases to 2 or more", lambda s: ge(s, "chip_detector_count", 2), None),
        ("If NR decays below 95 %", lambda s: lt(s, "rotor_speed", 95), None),
        ("If the TGT rises past 900 °C", lambda s: gt(s, "tgt", C2F(900)), None),
        ("Torque indications greater than 120 %", lambda s: gt(s, "torque", 120), None)])

# ---------------------------------------------------------------- hyperbaric_chamber
# bar text -> kPa manifest for the chamber pressure (3.0 bar = 300 kPa; the ATA / msw treatment table is
# descriptive), bar text -> psi for the air supply pressure (7 bar = 101.526421 psi), °C text -> degF for the
# chamber temperature (20/27/30 °C = 68/80.6/86 °F; set point 23 °C = 73.4 °F), °C text -> K for the breathing
# air dew point (-20 °C = 253.15 K); O2, CO2, relative humidity and SpO2 in percent
domain("hyperbaric_chamber",
       {"chamber_pressure": (0, 700), "o2_concentration": (0, 100), "co2_concentration": (0, 10),
        "chamber_temperature": (0, 150), "relative_humidity": (0, 100), "spo2": (0, 100),
        "air_supply_pressure": (0, 300), "air_dew_point": (150, 350)},
       [# a rule whose only condition is an unless: fires below 7 bar, not when the pressure is absent / NaN
        ("Compression must not begin unless the air supply pressure is at least 7 bar",
         lambda s: NOT(ge(s, "air_supply_pressure", 700 / PSI_KPA)), None),
        # "is not to rise above -20 °C": violated above
        ("is not to rise above -20 °C", lambda s: gt(s, "air_dew_point", C2K(-20)), None),
        # "Under no circumstances may X exceed N": violated above
        ("Under no circumstances may the chamber pressure exceed 3.0 bar", lambda s: gt(s, "chamber_pressure", 300), None),
        ("chamber O2 concentration exceeds 23.5 %", lambda s: gt(s, "o2_concentration", F("23.5")), None),
        ("falls short of 19.5 %", lambda s: lt(s, "o2_concentration", F("19.5")), None),
        ("The safety officer shall order an air flush",
         lambda s: AND(ge(s, "o2_concentration", 22), gt(s, "chamber_pressure", 200)), None),
        ("found to be above 0.5 %", lambda s: gt(s, "co2_concentration", F("0.5")), None),
        # unless: chamber pressure absent / NaN -> no fire
        ("The operator shall flush the chamber with air",
         lambda s: AND(gt(s, "co2_concentration", 1), NOT(lt(s, "chamber_pressure", 110))), None),
        # imperative "Keep X between A and B": violated outside
        ("Keep the chamber temperature between 20 °C and 27 °C",
         lambda s: outside(s, "chamber_temperature", C2F(20), C2F(27)), None),
        ("exceeds 30 °C for a continuous period of more than 10 minutes",
         lambda s: gt(s, "chamber_temperature", C2F(30)), 600),
        # "may not drop below 30 %": violated below
        ("may not drop below 30 %", lambda s: lt(s, "relative_humidity", 30), None),
        # except: chamber temperature absent / NaN -> no fire
        ("Start the chamber dehumidifier",
         lambda s: AND(gt(s, "relative_humidity", 75), NOT(lt(s, "chamber_temperature", C2F(20)))), None),
        ("patient SpO2 is 88 % or less", lambda s: le(s, "spo2", 88), None)])

# ---------------------------------------------------------------- district_heating_substation
# °C text -> K manifest for the primary supply temperature (130 °C = 403.15 K; history 140 °C = 413.15 K, design
# 110 °C = 383.15 K), °C text -> degF for the secondary supply temperature (95/70/20 °C = 203/158/68 °F; heating
# curve 70/35 °C = 158/95 °F); bar text -> kPa for the differential pressure (0.8/6.0 bar = 80/600 kPa), bar text
# -> MPa for the expansion vessel pressure (1.3/1.0/2.7 bar = 0.13/0.1/0.27 MPa; safety valve 3.0 bar = 0.3 MPa,
# commissioning 1.5 bar = 0.15 MPa); MW text -> kW (1.2 MW = 1200 kW); primary return and outdoor temperature
# degC, L/h and Hz identical in text and manifest
domain("district_heating_substation",
       {"primary_supply_temperature": (250, 450), "primary_return_temperature": (-20, 150),
        "secondary_supply_temperature": (0, 260), "outdoor_temperature": (-50, 60),
        "differential_pressure": (0, 1600), "expansion_vessel_pressure": (0, 1), "makeup_water_flow": (0, 2000),
        "heat_output": (0, 3000), "pump_frequency": (0, 60)},
       [# "may at most amount to N": violated above
        ("may at most amount to 130 °C", lambda s: gt(s, "primary_supply_temperature", C2K(130)), None),
        # "X above N is not permissible": fires above
        ("A primary return temperature above 60 °C is not permissible",
         lambda s: gt(s, "primary_return_temperature", 60), None),
        ("lies in the range of 50 °C to 60 °C", lambda s: between(s, "primary_return_temperature", 50, 60), None),
        # "is to amount to at least N": violated below
        ("is to amount to at least 0.8 bar", lambda s: lt(s, "differential_pressure", 80), None),
        ("Primary differential pressures exceeding 6.0 bar", lambda s: gt(s, "differential_pressure", 600), None),
        # "may at most be N": violated above
        ("The heat output may at most be 1.2 MW", lambda s: gt(s, "heat_output", 1200), None),
        ("In case of a secondary supply temperature above 95 °C",
         lambda s: gt(s, "secondary_supply_temperature", C2F(95)), None),
        # "While C, X is not to fall below N": fires when C holds and X < N
        ("is not to fall below 70 °C",
         lambda s: AND(lt(s, "outdoor_temperature", -5), lt(s, "secondary_supply_temperature", C2F(70))), None),
        # except: secondary supply temperature absent / NaN -> no fire
        ("For frost protection",
         lambda s: AND(lt(s, "outdoor_temperature", 3), NOT(gt(s, "secondary_supply_temperature", C2F(20)))), None),
        ("with a pump frequency below 25 Hz is not permissible", lambda s: lt(s, "pump_frequency", 25), None),
        # unless: make-up water flow absent / NaN -> no fire
        ("In case of an expansion vessel pressure lower than 1.3 bar",
         lambda s: AND(lt(s, "expansion_vessel_pressure", F("0.13")), NOT(gt(s, "makeup_water_flow", 50))), None),
        # "Falling below X of N" / "Exceeding X of N": X < N / X > N
        ("Falling below an expansion vessel pressure of 1.0 bar",
         lambda s: lt(s, "expansion_vessel_pressure", F("0.1")), None),
        ("Exceeding an expansion vessel pressure of 2.7 bar",
         lambda s: gt(s, "expansion_vessel_pressure", F("0.27")), None),
        ("uninterruptedly for more than 30 minutes", lambda s: gt(s, "makeup_water_flow", 50), 1800)])

# ---------------------------------------------------------------- spacecraft_eclss
# psia text -> kPa manifest for the cabin total pressure (psia converts like psi: 14.0/14.9/13.9/10.2/14.7/12.0 psia =
# 96.5266/102.7319/95.8371/70.3265/101.3529/82.7371 kPa; relief 15.2 psia = 104.8003), mmHg text -> kPa for the ppO2
# (146/155/178/130 mmHg = 19.46507/20.66497/23.73138/17.33191 kPa; nominal 160-170 mmHg), kPa text -> mmHg for the
# ppCO2 rule C (1.0 kPa = 7.500616 mmHg; no query between 7.5 and 7.5006), °F text -> degC (65/82/50/38 °F =
# 18.333/27.778/10/3.333 °C; set points 72/40 °F = 22.222/4.444 °C); ppCO2 itself in mmHg (identity)
domain("spacecraft_eclss",
       {"cabin_pressure": (0, 110), "ppo2": (0, 50), "ppco2": (0, 30), "o2_concentration": (0, 100),
        "relative_humidity": (0, 100), "cabin_air_temperature": (0, 50), "ccaa_fan_speed": (0, 8000),
        "ltl_supply_temperature": (-10, 40), "ltl_accumulator_quantity": (0, 100)},
       [("shall be maintained between 14.0 and 14.9 psia",
         lambda s: outside(s, "cabin_pressure", 14 * PSI_KPA, F("14.9") * PSI_KPA), None),
        ("drops below 13.9 psia", lambda s: lt(s, "cabin_pressure", F("13.9") * PSI_KPA), None),
        # action-first "X is required when C"
        ("Crew egress to the Soyuz and Crew Dragon vehicles is required",
         lambda s: le(s, "cabin_pressure", F("10.2") * PSI_KPA), None),
        # "Do not perform … with X higher than N": fires when the comparison holds
        ("Do not perform a nitrogen repress", lambda s: gt(s, "cabin_pressure", F("14.7") * PSI_KPA), None),
        # "shall not be allowed to fall below N": violated below
        ("shall not be allowed to fall below 146 mmHg", lambda s: lt(s, "ppo2", 146 * MMHG_KPA), None),
        # unless: O2 concentration absent / NaN -> no fire
        ("If the ppO2 is lower than 155 mmHg",
         lambda s: AND(lt(s, "ppo2", 155 * MMHG_KPA), NOT(gt(s, "o2_concentration", 23))), None),
        ("O2 repress shall be terminated if the ppO2 exceeds 178 mmHg", lambda s: gt(s, "ppo2", 178 * MMHG_KPA), None),
        ("must not exceed 24.1 percent", lambda s: gt(s, "o2_concentration", F("24.1")), None),
        ("The crew shall don the emergency masks",
         lambda s: OR(lt(s, "ppo2", 130 * MMHG_KPA), le(s, "cabin_pressure", 12 * PSI_KPA)), None),
        ("remains above 4.0 mmHg for more than 30 minutes", lambda s: gt(s, "ppco2", 4), 1800),
        ("At a ppCO2 of 6.0 mmHg or higher", lambda s: ge(s, "ppco2", 6), None),
        # dual units "1.0 kPa (7.5 mmHg)": no query sits between 7.5 and 7.500616; except: cabin pressure absent -> no fire
        ("the Vozdukh shall be activated as well",
         lambda s: AND(gt(s, "ppco2", 1 / MMHG_KPA), NOT(lt(s, "cabin_pressure", F("13.9") * PSI_KPA))), None),
        ("shall be kept within 25 % to 75 %", lambda s: outside(s, "relative_humidity", 25, 75), None),
        ("inspect the Node 3 and Lab stowage areas",
         lambda s: AND(gt(s, "relative_humidity", 70), lt(s, "cabin_air_temperature", F2C(65))), None),
        ("The cabin air temperature shall not exceed 82 °F", lambda s: gt(s, "cabin_air_temperature", F2C(82)), None),
        ("A CCAA fan speed lower than 2,500 rpm", lambda s: lt(s, "ccaa_fan_speed", 2500), None),
        ("If the LTL supply temperature rises above 50 °F", lambda s: gt(s, "ltl_supply_temperature", F2C(50)), None),
        ("Should the LTL supply temperature fall below 38 °F", lambda s: lt(s, "ltl_supply_temperature", F2C(38)), None),
        ("less than 20 % or more than 85 %",
         lambda s: OR(lt(s, "ltl_accumulator_quantity", 20), gt(s, "ltl_accumulator_quantity", 85)), None)])

# ---------------------------------------------------------------- blood_bank
# °C text -> degF manifest for the refrigerator (1/6/7/10/0 °C = 33.8/42.8/44.6/50/32 °F; alarm set points 1.5/5.5 °C =
# 34.7/41.9 °F, defrost 8 °C = 46.4 °F) and the plasma freezer (-18/-25/-40 °C = -0.4/-13/-40 °F; set point -30 °C =
# -22 °F); min text -> s (3/30 min = 180/1800 s), h text -> min (24 h = 1440 min); incubator, water bath and unit
# surface temperatures degC, cycles/min and percent identical in text and manifest
domain("blood_bank",
       {"fridge_temperature": (0, 120), "door_open_time": (0, 86400), "freezer_temperature": (-120, 60),
        "incubator_temperature": (0, 50), "agitation_rate": (0, 200), "agitation_stop_time": (0, 20160),
        "water_bath_temperature": (0, 80), "water_bath_level": (0, 100), "time_out_of_storage": (0, 604800),
        "unit_surface_temperature": (-10, 50)},
       [# "must be kept within +1 °C to +6 °C": violated outside
        ("The refrigerator temperature must be kept within +1 °C to +6 °C",
         lambda s: outside(s, "fridge_temperature", C2F(1), C2F(6)), None),
        # unless: door open time absent / NaN -> no fire
        ("Transfer the red cells to the other refrigerator",
         lambda s: AND(gt(s, "fridge_temperature", C2F(7)), NOT(gt(s, "door_open_time", 60))), None),
        ("has risen above 10 °C", lambda s: gt(s, "fridge_temperature", C2F(10)), None),
        ("If the refrigerator temperature is 0 °C or lower", lambda s: le(s, "fridge_temperature", C2F(0)), None),
        ("whenever the refrigerator door open time exceeds 3 min", lambda s: gt(s, "door_open_time", 180), None),
        # "must be at or below -18 °C": violated above
        ("must be at or below -18 °C", lambda s: gt(s, "freezer_temperature", C2F(-18)), None),
        ("stays above -25 °C for more than 20 minutes", lambda s: gt(s, "freezer_temperature", C2F(-25)), 1200),
        ("A plasma freezer temperature below -40 °C", lambda s: lt(s, "freezer_temperature", C2F(-40)), None),
        ("is outside 20 °C to 24 °C", lambda s: outside(s, "incubator_temperature", 20, 24), None),
        ("has dropped below 18 °C", lambda s: lt(s, "incubator_temperature", 18), None),
        # "shall be 60 to 70 cycles/min": violated outside
        ("The agitation rate shall be 60 to 70 cycles/min", lambda s: outside(s, "agitation_rate", 60, 70), None),
        ("An agitation stop time of more than 24 h", lambda s: gt(s, "agitation_stop_time", 24 * 60), None),
        ("Do not use the plasma thawer",
         lambda s: OR(lt(s, "water_bath_temperature", 30), gt(s, "water_bath_temperature", 37)), None),
        ("If the water bath temperature exceeds 39 °C", lambda s: gt(s, "water_bath_temperature", 39), None),
        ("whenever the water bath level reads lower than 80 %", lambda s: lt(s, "water_bath_level", 80), None),
        # prohibition with "if A or B": fires when either holds; "exceeds 30 minutes" is a comparison on a time parameter
        ("shall not be placed back into inventory",
         lambda s: OR(gt(s, "time_out_of_storage", 1800), gt(s, "unit_surface_temperature", 10)), None)])

# ---------------------------------------------------------------- fired_heater
# °F text -> degC manifest for the tube-skin (1,050/1,000 °F = 565.556/537.778 °C; design 1,150 °F = 621.111, history
# 1,100 °F = 593.333) and coil outlet temperatures (700 °F = 371.111 °C; procedure 680 °F = 360 °C), °F text -> K for the
# stack temperature (850/300 °F = 727.594/422.039 K; typical 330 °F = 438.706 K); mbar text -> Pa for the arch
# pressure (-0.5/-0.1/-0.05/+0.25 mbar = -50/-10/-5/25 Pa); psig text -> kPa (gauge manifest; psig converts like psi:
# 5/30/8/3 psig = 34.4738/206.8427/55.1581/20.6843 kPa; set point 18 psig = 124.1056, normal 15-22 psig);
# percent, ppm and m³/h identical in text and manifest
def F2K(f): return F2C(f) + F("273.15")
domain("fired_heater",
       {"tube_skin_temperature": (0, 900), "coil_outlet_temperature": (0, 600), "stack_temperature": (250, 1000),
        "arch_pressure": (-500, 500), "firing_rate": (0, 120), "flue_gas_o2": (0, 25), "flue_gas_co": (0, 10000),
        "fuel_gas_pressure": (0, 700), "pilot_gas_pressure": (0, 300), "flame_signal": (0, 100),
        "pass_flow": (0, 300), "combustion_air_flow": (0, 120)},
       [("The tube-skin temperature must not exceed 1,050 °F", lambda s: gt(s, "tube_skin_temperature", F2C(1050)), None),
        # the "back below 1,000 °F" and the firing rate inside the action are not conditions
        ("If the tube-skin temperature is above 1,000 °F", lambda s: gt(s, "tube_skin_temperature", F2C(1000)), None),
        ("shall never be higher than 700 °F", lambda s: gt(s, "coil_outlet_temperature", F2C(700)), None),
        # "must stay below N": violated at N or above
        ("The stack temperature must stay below 850 °F", lambda s: ge(s, "stack_temperature", F2K(850)), None),
        ("A stack temperature lower than 300 °F", lambda s: lt(s, "stack_temperature", F2K(300)), None),
        ("shall be kept between -0.5 mbar and -0.1 mbar", lambda s: outside(s, "arch_pressure", -50, -10), None),
        ("rises above -0.05 mbar while the firing rate is 80 % or more",
         lambda s: AND(gt(s, "arch_pressure", -5), ge(s, "firing_rate", 80)), None),
        ("remains below 1.5 % for more than 2 minutes", lambda s: lt(s, "flue_gas_o2", F("1.5")), 120),
        # "outside 1.0 % to 8.0 %" (one condition, so the except clause covers all of it; the first wording
        # "below 1.0 % or above 8.0 %, except when …" let the except bind to the second side only);
        # except: firing rate absent / NaN -> no fire
        ("Switch the O2 trim controller AIC-1120 to manual",
         lambda s: AND(outside(s, "flue_gas_o2", 1, 8), NOT(lt(s, "firing_rate", 30))), None),
        ("Flue gas O2 of 6 % or higher with a firing rate above 50 %",
         lambda s: AND(ge(s, "flue_gas_o2", 6), gt(s, "firing_rate", 50)), None),
        # unless: flue gas O2 absent / NaN -> no fire; the combustion air flow in the action is not a condition
        ("when the flue gas CO exceeds 400 ppm",
         lambda s: AND(gt(s, "flue_gas_co", 400), NOT(gt(s, "flue_gas_o2", 4))), None),
        ("Pilot gas pressure lower than 3 psig", lambda s: lt(s, "pilot_gas_pressure", 3 * PSI_KPA), None),
        ("A flame scanner signal between 15 % and 30 %", lambda s: between(s, "flame_signal", 15, 30), None),
        # MFT cause list (C1-C6) under an intro ending in ':'
        ("fuel gas pressure below 5 psig", lambda s: lt(s, "fuel_gas_pressure", 5 * PSI_KPA), None),
        ("fuel gas pressure above 30 psig", lambda s: gt(s, "fuel_gas_pressure", 30 * PSI_KPA), None),
        ("arch pressure above +0.25 mbar", lambda s: gt(s, "arch_pressure", 25), None),
        ("flame scanner signal less than 15 %", lambda s: lt(s, "flame_signal", 15), None),
        ("pass flow below 25 m³/h in any pass", lambda s: lt(s, "pass_flow", 25), None),
        ("combustion air flow lower than 20 %", lambda s: lt(s, "combustion_air_flow", 20), None),
        # cause-and-effect alarm lines "TAG  cause -> response"
        ("Fuel gas pressure 8 psig or lower", lambda s: le(s, "fuel_gas_pressure", 8 * PSI_KPA), None),
        ("Pass flow below 40 m³/h", lambda s: lt(s, "pass_flow", 40), None),
        ("Flue gas CO above 1,000 ppm", lambda s: gt(s, "flue_gas_co", 1000), None)])

# ---------------------------------------------------------------- hydropower_unit
# MPa text -> bar manifest for the penstock pressure (1.85/0.60/0.40 MPa = 18.5/6/4 bar; static 1.27 MPa = 12.7 bar),
# bar text -> psi for the governor oil pressure (36/32/37 bar = 522.13586/464.12076/536.63963 psi; normal 38-40 bar =
# 551.143-580.151 psi), bar text -> kPa for the brake air pressure (6 bar = 600 kPa), kPa text -> bar for the draft tube
# pressure (-45 kPa = -0.45 bar), °C text -> degF for the stator winding (120/130 °C = 248/266 °F); bearing temperatures
# degC, levels m (text "m a.s.l."), percent, m³/h, µm and MW identical in text and manifest
BAR_PSI = 100 / PSI_KPA
domain("hydropower_unit",
       {"ugb_temperature": (-20, 150), "thrust_pad_temperature": (-20, 150), "thrust_oil_temperature": (-20, 150),
        "tgb_temperature": (-20, 150), "stator_winding_temperature": (-4, 400), "unit_speed": (0, 250),
        "penstock_pressure": (0, 40), "wicket_gate_opening": (0, 105), "headwater_level": (380, 440),
        "tailwater_level": (280, 310), "draft_tube_pressure": (-1, 3), "cooling_water_flow": (0, 1000),
        "governor_oil_pressure": (0, 1000), "brake_air_pressure": (0, 1200), "shaft_vibration": (0, 1000),
        "generator_output": (-20, 80)},
       [# setpoint schedule (Table 4-1): one rule per row, the limit column with a comparison symbol
        ("TAH-211 Upper guide bearing temperature", lambda s: gt(s, "ugb_temperature", 70), None),
        ("TAHH-211 Upper guide bearing temperature", lambda s: gt(s, "ugb_temperature", 80), None),
        ("TAH-221 Thrust pad temperature", lambda s: gt(s, "thrust_pad_temperature", 75), None),
        ("TAHH-221 Thrust pad temperature", lambda s: ge(s, "thrust_pad_temperature", 85), None),
        ("TAH-231 Turbine guide bearing temperature", lambda s: gt(s, "tgb_temperature", 65), None),
        ("PAL-301 Governor oil pressure", lambda s: lt(s, "governor_oil_pressure", 36 * BAR_PSI), None),
        ("PALL-301 Governor oil pressure", lambda s: le(s, "governor_oil_pressure", 32 * BAR_PSI), None),
        ("SAHH-101 Unit speed", lambda s: ge(s, "unit_speed", 145), None),
        # "shall be limited to a maximum of N": violated above N
        ("shall be limited to a maximum of 60 °C", lambda s: gt(s, "thrust_oil_temperature", 60), None),
        # "rise by more than 5 °C within 10 minutes" is a rate of change: no threshold on the value, never fires here
        # "reaches 75 °C": tested only at 75 and below
        ("If the turbine guide bearing temperature reaches 75 °C", lambda s: eq(s, "tgb_temperature", 75), None),
        # one sentence, two statements joined by ", and"
        ("Shaft vibration above 200 µm must be reported", lambda s: gt(s, "shaft_vibration", 200), None),
        ("in case the shaft vibration exceeds 300 µm", lambda s: gt(s, "shaft_vibration", 300), None),
        # "…: alarm above 120 °C, trip above 130 °C" (two statements after a colon)
        ("alarm above 120 °C", lambda s: gt(s, "stator_winding_temperature", C2F(120)), None),
        ("trip above 130 °C", lambda s: gt(s, "stator_winding_temperature", C2F(130)), None),
        ("becomes lower than -1.5 MW", lambda s: lt(s, "generator_output", F("-1.5")), None),
        # "Loading the unit above 64 MW generator output is prohibited" (number before the parameter)
        ("above 64 MW generator output is prohibited", lambda s: gt(s, "generator_output", 64), None),
        # "shall not be drawn down below N": violated below N
        ("shall not be drawn down below 405.00 m", lambda s: lt(s, "headwater_level", 405), None),
        ("Start-up of the unit is blocked", lambda s: lt(s, "headwater_level", F("406.5")), None),
        ("climbs higher than 298.00 m", lambda s: gt(s, "tailwater_level", 298), None),
        # "must never rise above N": violated above N
        ("must never rise above 1.85 MPa", lambda s: gt(s, "penstock_pressure", F("18.5")), None),
        ("A penstock pressure under 0.60 MPa",
         lambda s: AND(lt(s, "penstock_pressure", 6), gt(s, "wicket_gate_opening", 10)), None),
        ("Close the MIV and shut the unit down",
         lambda s: OR(lt(s, "penstock_pressure", 4), lt(s, "headwater_level", 404)), None),
        # unless: wicket gate opening absent / NaN -> no fire
        ("the air admission valve opens automatically",
         lambda s: AND(lt(s, "draft_tube_pressure", F("-0.45")), NOT(gt(s, "wicket_gate_opening", 70))), None),
        ("The governor closes the wicket gates at a unit speed of 115 % or higher", lambda s: ge(s, "unit_speed", 115), None),
        ("falls to 37 bar or below", lambda s: le(s, "governor_oil_pressure", 37 * BAR_PSI), None),
        ("The generator brakes are applied automatically", lambda s: lt(s, "unit_speed", 20), None),
        # "The minimum permissible X is N" (mirror of "The maximum X is N"): fires below N
        ("The minimum permissible brake air pressure is 6 bar", lambda s: lt(s, "brake_air_pressure", 600), None),
        ("falls to 250 m³/h or less", lambda s: le(s, "cooling_water_flow", 250), None),
        # "X below N lasting more than T": the "for more than T" duration
        ("lasting more than 2 minutes", lambda s: lt(s, "cooling_water_flow", 180), 120)])

# ---------------------------------------------------------------- mri_system
# psi text -> mbar manifest for the helium vessel pressure (1.0/4.0/5.5 psi = 68.94757/275.79029/379.21165 mbar),
# °C text -> degF for the magnet room (18/22/24 °C = 64.4/71.6/75.2 °F); K, percent, degC, L/min, W/kg and kg identical
domain("mri_system",
       {"helium_level": (0, 110), "helium_vessel_pressure": (-100, 1000), "cold_head_temperature": (0, 300),
        "oxygen_concentration": (0, 100), "magnet_room_temperature": (32, 122), "relative_humidity": (0, 100),
        "equipment_room_temperature": (0, 50), "chilled_water_inlet_temperature": (0, 40),
        "chilled_water_flow": (0, 300), "gradient_coil_temperature": (0, 120), "wb_sar": (0, 20),
        "head_sar": (0, 20), "dbdt": (0, 200), "patient_weight": (0, 400)},
       [("has gone down to 50 % or less", lambda s: le(s, "helium_level", 50), None),
        ("call service at once if the helium level is below 30 %", lambda s: lt(s, "helium_level", 30), None),
        # "must stay within A to B": violated outside
        ("must stay within 1.0 psi to 4.0 psi",
         lambda s: outside(s, "helium_vessel_pressure", 10 * PSI_KPA, 40 * PSI_KPA), None),
        ("A helium vessel pressure of more than 5.5 psi",
         lambda s: gt(s, "helium_vessel_pressure", 55 * PSI_KPA), None),
        ("remains in excess of 4.5 K for more than 20 min", lambda s: gt(s, "cold_head_temperature", F("4.5")), 1200),
        ("at a cold head temperature of 6 K or higher", lambda s: ge(s, "cold_head_temperature", 6), None),
        ("falls under 18 %", lambda s: lt(s, "oxygen_concentration", 18), None),
        ("gives a pre-alarm if the oxygen concentration", lambda s: le(s, "oxygen_concentration", F("19.5")), None),
        # "Do not enter … unless X is at least N": fires when X < N; X absent / NaN -> no fire
        ("Do not enter the magnet room unless", lambda s: NOT(ge(s, "oxygen_concentration", F("19.5"))), None),
        # "Permitted X: A to B": violated outside
        ("Permitted magnet room temperature: 18 °C to 22 °C",
         lambda s: outside(s, "magnet_room_temperature", C2F(18), C2F(22)), None),
        ("If the magnet room temperature exceeds 24 °C", lambda s: gt(s, "magnet_room_temperature", C2F(24)), None),
        # "must not fall below A nor exceed B": violated when either holds
        ("must not fall below 40 % nor exceed 60 %",
         lambda s: OR(lt(s, "relative_humidity", 40), gt(s, "relative_humidity", 60)), None),
        ("The gradient power amplifier switches off",
         lambda s: OR(gt(s, "equipment_room_temperature", 30), gt(s, "chilled_water_inlet_temperature", 18)), None),
        ("Scanning is inhibited whenever the chilled water flow", lambda s: lt(s, "chilled_water_flow", 40), None),
        ("With a chilled water inlet temperature above 14 °C",
         lambda s: gt(s, "chilled_water_inlet_temperature", 14), None),
        ("goes beyond 60 °C", lambda s: gt(s, "gradient_coil_temperature", 60), None),
        ("at a gradient coil temperature of 70 °C or more", lambda s: ge(s, "gradient_coil_temperature", 70), None),
        # the operating-mode definition ("in which the whole-body SAR is at most 2 W/kg …") is descriptive
        ("A whole-body SAR of more than 2 W/kg", lambda s: gt(s, "wb_sar", 2), None),
        ("for which the whole-body SAR is above 4 W/kg", lambda s: gt(s, "wb_sar", 4), None),
        ("The head SAR must not be more than 3.2 W/kg", lambda s: gt(s, "head_sar", F("3.2")), None),
        ("If dB/dt is greater than 80 %", lambda s: gt(s, "dbdt", 80), None),
        ("with a dB/dt of more than 100 %", lambda s: gt(s, "dbdt", 100), None),
        ("with a patient weight of more than 250 kg", lambda s: gt(s, "patient_weight", 250), None)])

# ---------------------------------------------------------------- freeze_dryer
# mbar text -> Pa manifest for the chamber pressure (0.070/0.090/0.150/0.300/0.100 mbar = 7/9/15/30/10 Pa; set point
# 0.080 mbar = 8 Pa, history 0.060 mbar = 6 Pa) and the leak test pressure rise (0.030 mbar = 3 Pa), µbar text -> Pa
# for the PRT pressure rise (20 µbar = 2 Pa; typical 5-10 µbar = 0.5-1 Pa), °C text -> K for the condenser
# (-60/-50/-40 °C = 213.15/223.15/233.15 K), °C text -> degF for the product (-33/-31/-34/-40 °C =
# -27.4/-23.8/-29.2/-40 °F; typical -36 °C = -32.8 °F); shelf inlet degC, percent and L/min identical.
# Phase qualifiers ("in steps 3 and 4", "During primary drying", "In secondary drying") name no parameter; queries
# use only values that are plausible in the phase the statement names.
domain("freeze_dryer",
       {"shelf_inlet_temperature": (-80, 80), "chamber_pressure": (0, 110000), "condenser_temperature": (150, 350),
        "product_temperature": (-112, 176), "pressure_rise": (0, 100), "leak_test_pressure_rise": (0, 100),
        "residual_moisture": (0, 20), "htf_flow": (0, 500)},
       [("shall be kept between 0.070 mbar and 0.090 mbar", lambda s: outside(s, "chamber_pressure", 7, 9), None),
        ("for more than 10 consecutive minutes", lambda s: gt(s, "chamber_pressure", 15), 600),
        # "reaches or passes N": >= N
        ("reaches or passes 0.300 mbar", lambda s: ge(s, "chamber_pressure", 30), None),
        # "shall not be higher than N": violated above N; "(2 °C below Tc)" is an explanation, not a condition
        ("the product temperature shall not be higher than -33 °C", lambda s: gt(s, "product_temperature", C2F(-33)), None),
        ("Should the product temperature rise above -31 °C", lambda s: gt(s, "product_temperature", C2F(-31)), None),
        ("A product temperature above -34 °C while the chamber pressure",
         lambda s: AND(gt(s, "product_temperature", C2F(-34)), gt(s, "chamber_pressure", 10)), None),
        # "shall be N or lower": violated above N
        ("The condenser temperature shall be -60 °C or lower", lambda s: gt(s, "condenser_temperature", C2K(-60)), None),
        # "warmer than" = above; unless: product temperature absent / NaN -> no fire
        ("becomes warmer than -50 °C",
         lambda s: AND(gt(s, "condenser_temperature", C2K(-50)), NOT(lt(s, "product_temperature", C2F(-40)))), None),
        ("Stop the cycle", lambda s: OR(lt(s, "htf_flow", 20), gt(s, "condenser_temperature", C2K(-40))), None),
        ("the shelf inlet temperature must not go above +35 °C", lambda s: gt(s, "shelf_inlet_temperature", 35), None),
        ("switches off the heater at a shelf inlet temperature above 42 °C",
         lambda s: gt(s, "shelf_inlet_temperature", 42), None),
        # "colder than" = below
        ("Shelf inlet temperatures colder than -55 °C", lambda s: lt(s, "shelf_inlet_temperature", -55), None),
        ("Switch to the standby circulation pump", lambda s: lt(s, "htf_flow", 60), None),
        ("If the pressure rise exceeds 20 µbar", lambda s: gt(s, "pressure_rise", 2), None),
        ("shall not exceed 0.030 mbar", lambda s: gt(s, "leak_test_pressure_rise", 3), None),
        ("shall be not more than 1.0 %", lambda s: gt(s, "residual_moisture", 1), None)])

# ---------------------------------------------------------------- ecmo_circuit
# mmHg text -> kPa manifest for the pre-oxygenator and venous pressures (1 mmHg = 101.325/760 kPa: 400/-100/-80 mmHg =
# 53.328947/-13.332237/-10.665789 kPa, all inexact; no query closer than 4·10⁻³ kPa), °C text -> degF for the blood
# temperature (39.0/35.0 °C = 102.2/95 °F), min text -> s for the remaining battery time (10/5/30 min = 600/300/1800 s);
# post-oxygenator pressure and delta-P in mmHg, rpm, L/min, percent, g/L and mm identical.
# Table 8-1 states one fixed alarm condition per row (a rule-bearing table, like hydropower Table 4-1).
MMHG_KPA = F("101.325") / 760
domain("ecmo_circuit",
       {"pump_speed": (0, 5500), "blood_flow": (-5, 10), "pre_oxygenator_pressure": (-20, 100),
        "post_oxygenator_pressure": (-100, 750), "delta_p": (-50, 500), "venous_pressure": (-80, 40),
        "svo2": (0, 100), "haemoglobin": (0, 250), "plasma_free_haemoglobin": (0, 20),
        "blood_temperature": (50, 113), "sweep_gas_flow": (0, 15), "remaining_battery_time": (0, 36000),
        "bubble_size": (0, 30)},
       [# "N or larger": >= N
        ("bubble size 5 mm or larger", lambda s: ge(s, "bubble_size", 5), None),
        ("pre-oxygenator pressure above 400 mmHg", lambda s: gt(s, "pre_oxygenator_pressure", 400 * MMHG_KPA), None),
        ("blood temperature higher than 39.0 °C", lambda s: gt(s, "blood_temperature", C2F(39)), None),
        ("remaining battery time 10 min or less", lambda s: le(s, "remaining_battery_time", 600), None),
        # "become more negative than N": < N
        ("become more negative than -100 mmHg", lambda s: lt(s, "venous_pressure", -100 * MMHG_KPA), None),
        # "except while C" = and not C; pump speed absent / NaN -> no fire
        ("goes lower than -80 mmHg",
         lambda s: AND(lt(s, "venous_pressure", -80 * MMHG_KPA), NOT(gt(s, "pump_speed", 4000))), None),
        # "not within A to B" = outside A to B
        ("is not within 100 mmHg to 350 mmHg", lambda s: outside(s, "post_oxygenator_pressure", 100, 350), None),
        # "is never to exceed N": violated above N
        ("is never to exceed 380 mmHg", lambda s: gt(s, "post_oxygenator_pressure", 380), None),
        # "An increase of X to more than N …; …": X > N (a level, not a change)
        ("An increase of the delta-P to more than 60 mmHg", lambda s: gt(s, "delta_p", 60), None),
        ("Prepare an oxygenator change", lambda s: AND(gt(s, "delta_p", 100), le(s, "blood_flow", 3)), None),
        # "is under N without interruption for more than T": the "for more than T" duration
        ("without interruption for more than 2 min", lambda s: lt(s, "svo2", 60), 120),
        ("Raise the blender FiO2 to 100 %",
         lambda s: AND(lt(s, "svo2", 65), NOT(lt(s, "haemoglobin", 80))), None),
        # "if A, or if B and C" = A or (B and C)
        ("if the SvO2 is less than 55 %",
         lambda s: OR(lt(s, "svo2", 55), AND(lt(s, "blood_flow", F("2.5")), ge(s, "pump_speed", 3500))), None),
        # "should be kept at or above N": violated below N
        ("should be kept at or above 80 g/L", lambda s: lt(s, "haemoglobin", 80), None),
        # "surpasses N": > N; alias nesting plasma-free haemoglobin / haemoglobin
        ("surpasses 0.5 g/L", lambda s: gt(s, "plasma_free_haemoglobin", F("0.5")), None),
        # "must be adjusted so that X never goes below N": violated below N
        ("never goes below 35.0 °C", lambda s: lt(s, "blood_temperature", C2F(35)), None),
        # "Do not reduce X to less than N while C": fires when X < N and C
        ("Do not reduce the sweep gas flow to less than 0.5 L/min",
         lambda s: AND(lt(s, "sweep_gas_flow", F("0.5")), ge(s, "blood_flow", F("1.5"))), None),
        # "at a pump speed above N" joins a second condition
        ("lower than 1.0 L/min at a pump speed above 2,000 rpm",
         lambda s: AND(lt(s, "blood_flow", 1), gt(s, "pump_speed", 2000)), None),
        ("less than -0.1 L/min", lambda s: lt(s, "blood_flow", F("-0.1")), None),
        ("Never operate the pump at a pump speed above 4,500 rpm", lambda s: gt(s, "pump_speed", 4500), None),
        # "must always be more than N": violated at N or less
        ("must always be more than 30 min", lambda s: le(s, "remaining_battery_time", 1800), None),
        ("When the remaining battery time is under 5 min", lambda s: lt(s, "remaining_battery_time", 300), None)])

# ---------------------------------------------------------------- steam_steriliser
# °C text -> degF manifest for the chamber temperature (134/140/138/80 °C = 273.2/284/280.4/176 °F), mbar text -> kPa
# for the chamber pressure (1,100/3,300/3,000 mbar = 110/330/300 kPa) and the leak-test pressure rise (13 mbar =
# 1.3 kPa), bar text -> kPa for the door seal pressure (2.5/2.0 bar = 250/200 kPa), bar text -> MPa for the jacket
# pressure (3.2 bar = 0.32 MPa), min text -> s for the holding time (3/15 min = 180/900 s), °C text -> K for the
# effluent temperature (60 °C = 333.15 K); F0 in min, K (superheat, test pack difference), µS/cm, percent, ratio, degC
# (load temperature) and s (equilibration time) identical.  Phase qualifiers ("during the holding time") name no
# parameter; the F07 replay uses only values plausible in the holding time.
domain("steam_steriliser",
       {"chamber_temperature": (32, 320), "chamber_pressure": (0, 500), "jacket_pressure": (0, 1),
        "door_seal_pressure": (0, 1000), "holding_time": (0, 7200), "equilibration_time": (0, 600),
        "load_temperature": (0, 150), "f0": (0, 200), "test_pack_temperature_difference": (0, 50),
        "pressure_rise": (0, 100), "feed_water_conductivity": (0, 2000), "air_detector_reading": (0, 100),
        "non_condensable_gas_content": (0, 100), "superheat": (0, 100), "dryness_value": (0, F("1.5")),
        "effluent_temperature": (F("233.15"), F("423.15"))},
       [# "shorter than N" (a time-valued parameter, not a duration): < N
        ("A holding time shorter than 3 min", lambda s: lt(s, "holding_time", 180), None),
        ("The door cannot be opened as long as",
         lambda s: OR(gt(s, "chamber_pressure", 110), gt(s, "chamber_temperature", C2F(80))), None),
        # "will not start with X of less than N": fires when X < N
        ("will not start with a door seal pressure of less than 2.5 bar",
         lambda s: lt(s, "door_seal_pressure", 250), None),
        # "must be kept under N": violated at N or more
        ("must be kept under 3.2 bar", lambda s: ge(s, "jacket_pressure", F("0.32")), None),
        # "is to stay below N": violated at N or more
        ("is to stay below 3,300 mbar", lambda s: ge(s, "chamber_pressure", 330), None),
        ("may not be higher than 60 °C", lambda s: gt(s, "effluent_temperature", C2K(60)), None),
        ("greater than 2.0 K means that", lambda s: gt(s, "test_pack_temperature_difference", 2), None),
        # definition-list items
        ("door seal pressure is 2.0 bar or below", lambda s: le(s, "door_seal_pressure", 200), None),
        # "drops below N and stays there for more than T": the "for more than T" duration
        ("drops below 134 °C and stays there for more than 10 s", lambda s: lt(s, "chamber_temperature", C2F(134)), 10),
        ("chamber temperature is higher than 140 °C", lambda s: gt(s, "chamber_temperature", C2F(140)), None),
        ("higher than 138 °C while the chamber pressure is lower than 3,000 mbar",
         lambda s: AND(gt(s, "chamber_temperature", C2F(138)), lt(s, "chamber_pressure", 300)), None),
        # "equal to or greater than N": >= N
        ("equal to or greater than 30 %", lambda s: ge(s, "air_detector_reading", 30), None),
        # "must be N or less": violated above N
        ("must be 5 µS/cm or less", lambda s: gt(s, "feed_water_conductivity", 5), None),
        ("Once the feed water conductivity exceeds 15 µS/cm", lambda s: gt(s, "feed_water_conductivity", 15), None),
        # "Label: N maximum" / "Label: N minimum"
        ("Non-condensable gas content: 3.5 % maximum", lambda s: gt(s, "non_condensable_gas_content", F("3.5")), None),
        ("Superheat: 25 K maximum", lambda s: gt(s, "superheat", 25), None),
        ("Dryness value: 0.95 minimum", lambda s: lt(s, "dryness_value", F("0.95")), None),
        # "shall not be longer than N": violated above N
        ("shall not be longer than 15 s", lambda s: gt(s, "equilibration_time", 15), None),
        # "shall lie between A and B": violated outside
        ("shall lie between 134 °C and 137 °C", lambda s: outside(s, "load_temperature", 134, 137), None),
        ("shall be 15 min or more", lambda s: lt(s, "f0", 15), None),
        # "shall be no greater than N": violated above N
        ("shall be no greater than 13 mbar", lambda s: gt(s, "pressure_rise", F("1.3")), None),
        # "must not be released, unless C": fires when F0 < 15 and not (holding time >= 900 s); absent / NaN -> no fire
        ("must not be released, unless",
         lambda s: AND(lt(s, "f0", 15), NOT(ge(s, "holding_time", 900))), None)])

# ---------------------------------------------------------------- compressor_station
# barg text -> MPa manifest for the suction pressure (42/38 barg = 4.2/3.8 MPa), barg -> bar for the discharge pressure
# (82/84 barg), barg -> kPa for the lube oil pressure (1.8/1.5/1.2 barg = 180/150/120 kPa), mbar -> kPa for the seal gas
# differential pressure (500/800 mbar = 50/80 kPa), °C text -> degF for the discharge temperature (150/165 °C =
# 302/329 °F), °C text -> K for the lube oil temperature (25/40/55/70 °C = 298.15/313.15/328.15/343.15 K); degC,
# percent (% LEL read as percent) and µm identical.  "barg" is gauge bar (like psig in earlier domains); the manifest
# pressures are gauge too.
domain("compressor_station",
       {"suction_pressure": (0, 12), "discharge_pressure": (0, 120), "discharge_temperature": (-40, 400),
        "aftercooler_outlet_temperature": (-40, 100), "ambient_temperature": (-50, 50), "surge_margin": (-50, 100),
        "lube_oil_pressure": (0, 1000), "lube_oil_temperature": (F("233.15"), F("423.15")),
        "seal_gas_differential_pressure": (0, 1000), "shaft_vibration": (0, 500), "bearing_temperature": (-20, 200),
        "gas_concentration": (0, 100), "enclosure_temperature": (-40, 400), "power_turbine_speed": (0, 130)},
       [# "sinks below N": < N
        ("sinks below 42 barg", lambda s: lt(s, "suction_pressure", F("4.2")), None),
        # "must in no case be higher than N, the MAOP …": violated above N
        ("must in no case be higher than 84 barg", lambda s: gt(s, "discharge_pressure", 84), None),
        ("If the discharge temperature exceeds 150 °C", lambda s: gt(s, "discharge_temperature", C2F(150)), None),
        # "rises over N": > N; unless: ambient absent / NaN -> no fire
        ("Start the second aftercooler fan bank",
         lambda s: AND(gt(s, "aftercooler_outlet_temperature", 45), NOT(lt(s, "ambient_temperature", -10))), None),
        # "is to be held under N": violated at N or more
        ("is to be held under 50 °C", lambda s: ge(s, "aftercooler_outlet_temperature", 50), None),
        # "becomes smaller than N": < N
        ("becomes smaller than 10 %", lambda s: lt(s, "surge_margin", 10), None),
        # "falls beneath N": < N
        ("falls beneath 1.8 barg", lambda s: lt(s, "lube_oil_pressure", 180), None),
        ("The unit start sequence is inhibited",
         lambda s: OR(lt(s, "lube_oil_pressure", 150), lt(s, "lube_oil_temperature", C2K(25))), None),
        # "has to stay in the range A to B": violated outside
        ("has to stay in the range 40 °C to 55 °C",
         lambda s: outside(s, "lube_oil_temperature", C2K(40), C2K(55)), None),
        # "X is below N and this condition continues for more than T": the "for more than T" duration
        ("this condition continues for more than 10 s", lambda s: lt(s, "seal_gas_differential_pressure", 50), 10),
        # "N and below": <= N
        ("of 800 mbar and below", lambda s: le(s, "seal_gas_differential_pressure", 80), None),
        # "greater than A but not greater than B": A < X <= B
        ("greater than 75 µm but not greater than 100 µm",
         lambda s: AND(gt(s, "shaft_vibration", 75), le(s, "shaft_vibration", 100)), None),
        # "N and more": >= N
        ("Bearing temperatures of 105 °C and more", lambda s: ge(s, "bearing_temperature", 105), None),
        ("with the power turbine speed over 102 %", lambda s: gt(s, "power_turbine_speed", 102), None),
        ("gas concentration higher than 10 % LEL", lambda s: gt(s, "gas_concentration", 10), None),
        # "if A, or if B while C" = A or (B and C); "reaches N or more" = >= N
        ("Initiate a station ESD with blowdown",
         lambda s: OR(ge(s, "gas_concentration", 40),
                      AND(gt(s, "enclosure_temperature", 180), ge(s, "gas_concentration", 20))), None),
        # cause-and-effect entries: the "Cause:" line is the condition of the entry
        ("suction pressure below 38 barg", lambda s: lt(s, "suction_pressure", F("3.8")), None),
        ("discharge pressure above 82 barg", lambda s: gt(s, "discharge_pressure", 82), None),
        ("discharge temperature 165 °C or higher", lambda s: ge(s, "discharge_temperature", C2F(165)), None),
        # "0 % or negative": <= 0
        ("surge margin 0 % or negative", lambda s: le(s, "surge_margin", 0), None),
        ("lube oil header pressure 1.2 barg or lower", lambda s: le(s, "lube_oil_pressure", 120), None),
        ("lube oil temperature above 70 °C", lambda s: gt(s, "lube_oil_temperature", C2K(70)), None),
        ("shaft vibration above 100 µm at any radial probe", lambda s: gt(s, "shaft_vibration", 100), None),
        ("bearing metal temperature above 115 °C", lambda s: gt(s, "bearing_temperature", 115), None),
        ("gas concentration 20 % LEL or higher at any detector", lambda s: ge(s, "gas_concentration", 20), None),
        ("enclosure temperature above 200 °C", lambda s: gt(s, "enclosure_temperature", 200), None),
        ("power turbine speed 105 % or more", lambda s: ge(s, "power_turbine_speed", 105), None)])

# ---------------------------------------------------------------- cabin_pressurisation
# ft text -> m manifest for the cabin altitude (8,000/8,800/9,550/10,000/14,000 ft = 2438.4/2682.24/2910.84/3048/
# 4267.2 m, exact), psi text -> kPa for the bleed pressure (57/30/12 psi = 393.00117/206.84272/82.73709 kPa, inexact;
# no query sits closer than 1.1e-3 kPa: cab-61 at 393.0), °C text -> degF for the duct and pack compressor outlet temperatures
# (88 °C = 190.4 °F; 230/260 °C = 446/500 °F), °C text -> K for the bleed temperature (257/290 °C = 530.15/563.15 K);
# psi (differential pressure), ft/min (vertical speeds), percent and degC (zone, pack outlet) identical.  "9 550 ft"
# and "14 000 FT" use a space as the thousands separator (Airbus style).  The LIM section is upper case.
domain("cabin_pressurisation",
       {"cabin_altitude": (-600, 12000), "cabin_vertical_speed": (-8000, 8000),
        "aircraft_vertical_speed": (-8000, 8000), "differential_pressure": (-3, 12),
        "outflow_valve_position": (0, 100), "pack_outlet_temperature": (-30, 150),
        "pack_compressor_outlet_temperature": (-40, 600), "duct_temperature": (-40, 300),
        "zone_temperature": (-20, 60), "bleed_pressure": (0, 700),
        "bleed_temperature": (F("233.15"), F("723.15"))},
       [# upper-case "MAXIMUM X: N": X > N
        ("MAXIMUM POSITIVE DIFFERENTIAL PRESSURE: 9.0 PSI", lambda s: gt(s, "differential_pressure", 9), None),
        # "must not be lower than N": violated below N
        ("MUST NOT BE LOWER THAN -1.0 PSI", lambda s: lt(s, "differential_pressure", -1), None),
        ("MAXIMUM CABIN ALTITUDE IN NORMAL OPERATION: 8,000 FT",
         lambda s: gt(s, "cabin_altitude", 8000 * FT_M), None),
        # prohibition "Do not … when X is higher than N": fires when X > N
        ("DO NOT SELECT RAM AIR ON", lambda s: gt(s, "differential_pressure", 1), None),
        # "is to remain lower than N": violated at N or more
        ("IS TO REMAIN LOWER THAN 230 °C", lambda s: ge(s, "pack_compressor_outlet_temperature", C2F(230)), None),
        # "if A and B, or if C"
        ("The standby CPC takes over automatically",
         lambda s: OR(AND(gt(s, "outflow_valve_position", 90), gt(s, "cabin_altitude", 8000 * FT_M)),
                      gt(s, "cabin_vertical_speed", 3000)), None),
        # "N or colder": <= N
        ("pack outlet temperature is 2 °C or colder", lambda s: le(s, "pack_outlet_temperature", 2), None),
        # "drops under N": < N
        ("drops under 12 psi", lambda s: lt(s, "bleed_pressure", 12 * PSI_KPA), None),
        ("cabin altitude exceeds 9 550 ft", lambda s: gt(s, "cabin_altitude", 9550 * FT_M), None),
        ("below 1.5 psi and the aircraft vertical speed",
         lambda s: AND(lt(s, "differential_pressure", F("1.5")), lt(s, "aircraft_vertical_speed", -1500)), None),
        ("pack compressor outlet temperature is above 260 °C",
         lambda s: OR(gt(s, "pack_compressor_outlet_temperature", C2F(260)), gt(s, "pack_outlet_temperature", 95)), None),
        ("a duct temperature of 88 °C or more", lambda s: ge(s, "duct_temperature", C2F(88)), None),
        ("bleed pressure is greater than 57 psi", lambda s: gt(s, "bleed_pressure", 57 * PSI_KPA), None),
        # "during more than T": the "for more than T" duration
        ("above 257 °C during more than 55 s", lambda s: gt(s, "bleed_temperature", C2K(257)), 55),
        ("temperature rises above 290 °C", lambda s: gt(s, "bleed_temperature", C2K(290)), None),
        ("cabin altitude is 8,800 ft or more", lambda s: ge(s, "cabin_altitude", 8800 * FT_M), None),
        ("when ΔP exceeds 1.5 psi", lambda s: gt(s, "differential_pressure", F("1.5")), None),
        ("greater than +1,800 ft/min or less than -1,800 ft/min",
         lambda s: OR(gt(s, "cabin_vertical_speed", 1800), lt(s, "cabin_vertical_speed", -1800)), None),
        # "not between A and B": outside A to B
        ("not between 16 °C and 32 °C", lambda s: outside(s, "zone_temperature", 16, 32), None),
        # unless: bleed pressure absent / NaN -> no fire
        ("set the PACK FLOW selector to HI",
         lambda s: AND(gt(s, "zone_temperature", 27), NOT(lt(s, "bleed_pressure", 30 * PSI_KPA))), None),
        # QRH condition line "● IF CAB ALT ABOVE 14 000 FT:" (introduces the checklist)
        ("IF CAB ALT ABOVE 14 000 FT", lambda s: gt(s, "cabin_altitude", 14000 * FT_M), None),
        # "does not exceed N": X <= N
        ("does not exceed 5 %",
         lambda s: AND(le(s, "outflow_valve_position", 5), gt(s, "cabin_altitude", 9550 * FT_M)), None),
        ("at any time the cabin altitude is above", lambda s: gt(s, "cabin_altitude", 10000 * FT_M), None)])

# ---------------------------------------------------------------- radiotherapy_linac
# °C text -> degF manifest for the water temperature (38/42/43/45 °C = 100.4/107.6/109.4/113 °F), mA text -> A for the
# magnetron current (120/100 mA = 0.12/0.1 A), psig text -> kPa for the SF6 pressure (25/35 psig = 172.36893/
# 241.31651 kPa, inexact; no query sits closer than 1.1e-3 kPa); percent, Gy/min, µA, µSv/h and ° identical.
# Alias nesting: "room dose rate" contains "dose rate".
domain("radiotherapy_linac",
       {"dose_rate": (0, 30), "daily_output_deviation": (-50, 50), "dose_per_mu_deviation": (-50, 50),
        "beam_symmetry": (0, 20), "beam_flatness": (0, 20), "dose_channel_difference": (0, 20),
        "magnetron_current": (0, 1), "water_temperature": (32, 160), "sf6_pressure": (0, 500),
        "ion_pump_current": (0, 1000), "room_dose_rate": (0, 10000), "gantry_angle_deviation": (0, 20),
        "collimator_angle_deviation": (0, 20)},
       [# "outside the tolerance of A to B": < A or > B
        ("is outside the tolerance of -3.0 % to +3.0 %",
         lambda s: outside(s, "daily_output_deviation", -3, 3), None),
        # "more negative than A or more positive than B"
        ("more negative than -5.0 % or more positive than +5.0 %",
         lambda s: OR(lt(s, "daily_output_deviation", -5), gt(s, "daily_output_deviation", 5)), None),
        # except: water temperature absent / NaN -> no fire
        ("Apply a same-day output correction",
         lambda s: AND(gt(s, "daily_output_deviation", F("1.5")), NOT(lt(s, "water_temperature", C2F(38)))), None),
        # "must not fall outside A to B": violated outside
        ("must not fall outside -2.0 % to +2.0 %", lambda s: outside(s, "dose_per_mu_deviation", -2, 2), None),
        ("lies between 1.0 % and 2.0 % or between -2.0 % and -1.0 %",
         lambda s: OR(between(s, "dose_per_mu_deviation", 1, 2), between(s, "dose_per_mu_deviation", -2, -1)), None),
        # coordinated subjects "if A or B is greater than N"
        ("if the beam symmetry or the beam flatness is greater than 3.0 %",
         lambda s: OR(gt(s, "beam_symmetry", 3), gt(s, "beam_flatness", 3)), None),
        ("A beam symmetry from 2.0 % to 3.0 %", lambda s: between(s, "beam_symmetry", 2, 3), None),
        # "must not be more than N": violated above N
        ("must not be more than 1.0°", lambda s: gt(s, "gantry_angle_deviation", 1), None),
        # "larger than N": > N
        ("collimator angle deviation is larger than", lambda s: gt(s, "collimator_angle_deviation", F("0.5")), None),
        ("under 5.4 Gy/min or over 6.6 Gy/min",
         lambda s: OR(lt(s, "dose_rate", F("5.4")), gt(s, "dose_rate", F("6.6"))), None),
        # "rises to more than N": > N
        ("dose channel difference rises to more than", lambda s: gt(s, "dose_channel_difference", 2), None),
        ("Magnetron current readings above 120 mA", lambda s: gt(s, "magnetron_current", F("0.12")), None),
        ("for as long as the SF6 pressure is lower than 25 psig", lambda s: lt(s, "sf6_pressure", 25 * PSI_KPA), None),
        # trailing inversion "… should X exceed N"
        ("should the SF6 pressure exceed", lambda s: gt(s, "sf6_pressure", 35 * PSI_KPA), None),
        # "has stayed above N for more than T": the "for more than T" duration
        ("has stayed above 10 µA for more than 5 minutes", lambda s: gt(s, "ion_pump_current", 10), 300),
        ("An ion pump current of 50 µA or more", lambda s: ge(s, "ion_pump_current", 50), None),
        # bare "A or B and C" = A or (B and C) ("or separates them")
        ("Switch the linac to STANDBY",
         lambda s: OR(gt(s, "ion_pump_current", 20),
                      AND(gt(s, "water_temperature", C2F(43)), gt(s, "magnetron_current", F("0.1")))), None),
        # "must be maintained no lower than A and no higher than B": violated when either fails
        ("no lower than 38 °C and no higher than 42 °C",
         lambda s: outside(s, "water_temperature", C2F(38), C2F(42)), None),
        # "N or warmer": >= N
        ("45 °C or warmer", lambda s: ge(s, "water_temperature", C2F(45)), None),
        # "Nobody may enter … while C": fires when C holds
        ("Nobody may enter the treatment room", lambda s: gt(s, "room_dose_rate", 20), None),
        # "must remain under N": violated at N or more
        ("must remain under 7.5 µSv/h", lambda s: ge(s, "room_dose_rate", F("7.5")), None)])

# ---------------------------------------------------------------- ammonia_refrigeration
# psig text -> kPa manifest for the suction pressure (gauge; -6/-5/+2/0 psig = -41.36854/-34.47379/13.78951/0 kPa),
# psig text -> bar for the discharge pressure (150/185/200 psig = 10.34214/12.75530/13.78951 bar), psid text -> psi
# manifest for the oil pressure differential (same number), °F text -> degC for the discharge and machinery room
# temperatures (194/212/230/104 °F = 90/100/110/40 °C, exact); percent, ppm and A identical.  No query sits closer
# than 1.4e-3 to an inexact psi boundary (nh-07 at -41.37 kPa).  Alias nesting: "low-pressure receiver level" (separator) contains
# "receiver level" (high-pressure receiver).  The staged ppm response is a markdown table whose condition column names
# the parameter only in its header ("NH3 concentration"); each row is one rule (tables are not in CONTRACTS.md).
domain("ammonia_refrigeration",
       {"suction_pressure": (-101, 1500), "discharge_pressure": (0, 30), "oil_pressure_differential": (0, 150),
        "discharge_temperature": (-50, 200), "receiver_level": (0, 100), "separator_level": (0, 100),
        "ammonia_concentration": (0, 100000), "machinery_room_temperature": (-30, 70), "motor_current": (0, 1000)},
       [# "dips below N": < N (negative gauge pressure)
        ("dips below -6 psig", lambda s: lt(s, "suction_pressure", -6 * PSI_KPA), None),
        # "shall be held between A and B": violated outside
        ("shall be held between -5 psig and +2 psig",
         lambda s: outside(s, "suction_pressure", -5 * PSI_KPA, 2 * PSI_KPA), None),
        ("condensing pressure is more than 185 psig", lambda s: gt(s, "discharge_pressure", 185 * PSI_KPA / 100), None),
        # prohibition "Never … while X is higher than N": fires when X > N
        ("Never reset the high-pressure cutout", lambda s: gt(s, "discharge_pressure", 150 * PSI_KPA / 100), None),
        # serial disjunction "A, B or C"
        ("Stop the high-stage compressor and investigate",
         lambda s: OR(gt(s, "discharge_pressure", 200 * PSI_KPA / 100), gt(s, "discharge_temperature", 100),
                      gt(s, "motor_current", 480)), None),
        # "X lower than N persisting for more than T": the "for more than T" duration; psid = psi differential
        ("persisting for more than 30 seconds", lambda s: lt(s, "oil_pressure_differential", 20), 30),
        ("Oil pressure differentials between 20 psid and 30 psid",
         lambda s: between(s, "oil_pressure_differential", 20, 30), None),
        ("Discharge temperatures exceeding 194 °F", lambda s: gt(s, "discharge_temperature", 90), None),
        # "at N and above": >= N
        ("stops the compressor at 230 °F and above", lambda s: ge(s, "discharge_temperature", 110), None),
        ("whenever the motor current exceeds 440 A", lambda s: gt(s, "motor_current", 440), None),
        # imperative constraint "Keep X above A and below B": violated at <= A or >= B
        ("Keep the receiver level above 15 % and below 80 %",
         lambda s: OR(le(s, "receiver_level", 15), ge(s, "receiver_level", 80)), None),
        ("low-pressure receiver level exceeds 75 %", lambda s: gt(s, "separator_level", 75), None),
        ("A separator level of 85 % or higher", lambda s: ge(s, "separator_level", 85), None),
        ("separator level is 20 % or less", lambda s: le(s, "separator_level", 20), None),
        # except: NH3 concentration absent / NaN -> no fire
        ("Start the standby exhaust fan",
         lambda s: AND(gt(s, "machinery_room_temperature", 40), NOT(ge(s, "ammonia_concentration", 150))), None),
        # table rows (condition cell "N ppm or more" under the header "NH3 concentration")
        ("Amber beacons flash at all machinery room doors", lambda s: ge(s, "ammonia_concentration", 25), None),
        ("emergency ventilation starts", lambda s: ge(s, "ammonia_concentration", 150), None),
        ("Site-wide evacuation alarm", lambda s: ge(s, "ammonia_concentration", 300), None),
        ("Non-explosion-proof electrical equipment", lambda s: ge(s, "ammonia_concentration", 40000), None),
        ("with a full-face air-purifying respirator", lambda s: gt(s, "ammonia_concentration", 300), None),
        # prohibition "Do not … while X is below N": fires when X < N
        ("Do not open an oil drain on the low side", lambda s: lt(s, "suction_pressure", 0), None)])

# ======================================================================= queries
Q = [
 # aircraft_engine
 ("ae-01", "aircraft_engine", {"egt": 951}),
 ("ae-02", "aircraft_engine", {"egt": 950, "n1": 104}),
 ("ae-03", "aircraft_engine", {"egt": 1300, "n1": 104.5}),          # egt out of manifest range -> invalid
 ("ae-04", "aircraft_engine", {"n1": 25, "egt": 701}),
 ("ae-05", "aircraft_engine", {"n1": 25, "egt": 700, "oil_temperature": 155, "altitude": 9144}),
 ("ae-06", "aircraft_engine", {"oil_pressure": 89.5, "n1": 85}),
 ("ae-07", "aircraft_engine", {"oil_pressure": 89.7, "n1": 80}),
 ("ae-08", "aircraft_engine", {"oil_pressure": 172.3, "n1": 92}),
 ("ae-09", "aircraft_engine", {"oil_pressure": 172.4, "n1": 92}),
 ("ae-10", "aircraft_engine", {"oil_temperature": 155.1, "altitude": 9144.5}),
 ("ae-11", "aircraft_engine", {"oil_temperature": -40.5, "n1": 20}),
 ("ae-12", "aircraft_engine", {"oil_temperature": 150}),
 # battery_bms
 ("bms-01", "battery_bms", {"cell_voltage": 4.2, "soc": 15}),
 ("bms-02", "battery_bms", {"cell_voltage": 4.21, "pack_current": -300.5}),
 ("bms-03", "battery_bms", {"cell_voltage": 2.8, "soc": 50}),
 ("bms-04", "battery_bms", {"cell_voltage": 2.79, "soc": 20}),
 ("bms-05", "battery_bms", {"cell_voltage_imbalance": 51, "cell_voltage": 3.7, "soc": 50}),
 ("bms-06", "battery_bms", {"pack_current": 250}),
 ("bms-07", "battery_bms", {"pack_current": -300, "soc": 8}),
 ("bms-08", "battery_bms", {"cell_temperature": -15, "soc": 9.9}),
 ("bms-09", "battery_bms", {"cell_temperature": -10, "soc": 4, "pack_current": -150}),
 ("bms-10", "battery_bms", {"soc": 100}),
 ("bms-11", "battery_bms", {"pack_current": 401}),
 ("bms-12", "battery_bms", {"cell_voltage": "nan", "soc": 50, "cell_voltage_imbalance": 50, "cell_temperature": 55}),
 # icu_monitoring
 ("icu-01", "icu_monitoring", {"spo2": 84}),
 ("icu-02", "icu_monitoring", {"spo2": 88, "resp_rate": 30}),
 ("icu-03", "icu_monitoring", {"resp_rate": 31, "spo2": 150}),       # spo2 out of range -> invalid
 ("icu-04", "icu_monitoring", {"resp_rate": 6}),
 ("icu-05", "icu_monitoring", {"map": 60, "heart_rate": 111}),
 ("icu-06", "icu_monitoring", {"map": 64, "core_temperature": 38.3}),
 ("icu-07", "icu_monitoring", {"map": 60, "heart_rate": 110, "core_temperature": 38.2, "resp_rate": 20}),
 ("icu-08", "icu_monitoring", {"map": 60, "heart_rate": 150, "resp_rate": 36}),
 ("icu-09", "icu_monitoring", {"heart_rate": 160}),
 ("icu-10", "icu_monitoring", {"heart_rate": 160, "map": 50, "resp_rate": 35}),
 ("icu-11", "icu_monitoring", {"gcs": 8, "core_temperature": 35.0, "map": 120}),
 ("icu-12", "icu_monitoring", {"gcs": 9, "core_temperature": 39.6, "spo2": 85}),
 # water_treatment
 ("wt-01", "water_treatment", {"turbidity": 1.0}),
 ("wt-02", "water_treatment", {"turbidity": 1.05}),
 ("wt-03", "water_treatment", {"free_chlorine": 3.5}),
 ("wt-04", "water_treatment", {"free_chlorine": 4.1}),
 ("wt-05", "water_treatment", {"free_chlorine": 0.2, "ph": 8.5}),
 ("wt-06", "water_treatment", {"free_chlorine": 0.19, "ph": 8.6}),
 ("wt-07", "water_treatment", {"ph": 6.5, "free_chlorine": 0.5}),
 ("wt-08", "water_treatment", {"clearwell_level": 0.5}),
 ("wt-09", "water_treatment", {"reservoir_level": 96}),
 ("wt-10", "water_treatment", {"pump_pressure": 650, "clearwell_level": 4.5}),
 ("wt-11", "water_treatment", {"pump_pressure": 651}),
 ("wt-12", "water_treatment", {"pump_pressure": 149, "clearwell_level": 1.1}),
 # railway
 ("rw-01", "railway", {"wind_speed": 20}),
 ("rw-02", "railway", {"wind_speed": 20.01}),
 ("rw-03", "railway", {"wind_speed": 30.86}),
 ("rw-04", "railway", {"wind_speed": 30.87, "train_speed": 251}),
 ("rw-05", "railway", {"train_speed": 250, "wind_speed": 16}),
 ("rw-06", "railway", {"axle_temperature": 90}),
 ("rw-07", "railway", {"axle_temperature": 130}),
 ("rw-08", "railway", {"axle_temperature": 69.9}),
 ("rw-09", "railway", {"brake_pipe_pressure": 3.5, "train_speed": 31}),
 ("rw-10", "railway", {"brake_pipe_pressure": 3.49, "train_speed": 30}),
 ("rw-11", "railway", {"train_speed": 5}),
 ("rw-12", "railway", {"train_speed": 300.5, "brake_pipe_pressure": 5}),
 # power_plant
 ("pp-01", "power_plant", {"turbine_speed": 3300, "steam_pressure": 17.5, "generator_voltage": 23.1}),
 ("pp-02", "power_plant", {"turbine_speed": 3301, "steam_pressure": 11.9}),
 ("pp-03", "power_plant", {"turbine_speed": 3000, "steam_pressure": 11.99}),
 ("pp-04", "power_plant", {"turbine_speed": 500, "lube_oil_temperature": 20}),
 ("pp-05", "power_plant", {"turbine_speed": 500, "lube_oil_temperature": 19.9}),
 ("pp-06", "power_plant", {"turbine_speed": 500}),
 ("pp-07", "power_plant", {"steam_pressure": 17.6}),
 ("pp-08", "power_plant", {"generator_voltage": 24.2, "bearing_temperature": 118}),
 ("pp-09", "power_plant", {"generator_voltage": 24.25, "bearing_temperature": 118.5}),
 ("pp-10", "power_plant", {"insulation_resistance": 0.5}),
 ("pp-11", "power_plant", {"insulation_resistance": 0.49, "lube_oil_temperature": 60, "bearing_vibration": 7.2}),
 ("pp-12", "power_plant", {"insulation_resistance": 2.01, "lube_oil_temperature": 59.9, "bearing_vibration": 7.1}),
 # process_pump
 ("cp-01", "process_pump", {"vibration": 7.1}),
 ("cp-02", "process_pump", {"vibration": 7.2}),
 ("cp-03", "process_pump", {"vibration": 11.5}),
 ("cp-04", "process_pump", {"bearing_temperature": 105}),
 ("cp-05", "process_pump", {"bearing_temperature": 105.1}),
 ("cp-06", "process_pump", {"bearing_temperature": 95}),
 ("cp-07", "process_pump", {"discharge_pressure": 1200}),
 ("cp-08", "process_pump", {"discharge_pressure": 1200.5, "suction_pressure": 0.4}),
 ("cp-09", "process_pump", {"suction_pressure": 0.39}),
 ("cp-10", "process_pump", {"motor_current": 180}),
 ("cp-11", "process_pump", {"motor_current": 200.5}),
 ("cp-12", "process_pump", {"motor_current": 179.9, "lube_oil_level": 20}),
 ("cp-13", "process_pump", {"lube_oil_level": 19.9}),
 ("cp-14", "process_pump", {"winding_temperature": 284}),
 ("cp-15", "process_pump", {"winding_temperature": 283.9}),
 ("cp-16", "process_pump", {"discharge_pressure": 1100, "bearing_temperature": 39}),
 ("cp-17", "process_pump", {"vibration": 4.5, "bearing_temperature": 84.9}),
 # satellite
 ("sat-01", "satellite", {"bus_voltage": 26.0}),
 ("sat-02", "satellite", {"bus_voltage": 26.01, "battery_temperature": 293.15}),
 ("sat-03", "satellite", {"bus_voltage": 33.6}),
 ("sat-04", "satellite", {"battery_current": -6.01}),
 ("sat-05", "satellite", {"battery_temperature": 268.15}),
 ("sat-06", "satellite", {"battery_temperature": 268.1}),
 ("sat-07", "satellite", {"battery_temperature": 308.15}),
 ("sat-08", "satellite", {"battery_temperature": 313.15, "battery_current": -6}),
 ("sat-09", "satellite", {"battery_temperature": 313.2}),
 ("sat-10", "satellite", {"wheel_speed": -5000, "orbit_altitude": 450000}),
 ("sat-11", "satellite", {"wheel_speed": -5001}),
 ("sat-12", "satellite", {"wheel_speed": 5000.5, "orbit_altitude": 449999}),
 # cold_chain
 ("cc-01", "cold_chain", {"cargo_temperature": 80.6}),
 ("cc-02", "cold_chain", {"cargo_temperature": 80.61}),
 ("cc-03", "cold_chain", {"cargo_temperature": 46.4, "door_open_time": 300, "humidity": 60}),
 ("cc-04", "cold_chain", {"cargo_temperature": 35.6}),
 ("cc-05", "cold_chain", {"cargo_temperature": 31.0}),
 ("cc-06", "cold_chain", {"supply_air_temperature": 50, "compressor_pressure": 72}),
 ("cc-07", "cold_chain", {"supply_air_temperature": 49.9, "compressor_pressure": 60}),
 ("cc-08", "cold_chain", {"supply_air_temperature": 50}),
 ("cc-09", "cold_chain", {"door_open_time": 301, "humidity": 95.5}),
 ("cc-10", "cold_chain", {"compressor_pressure": 351, "humidity": 59}),
 ("cc-11", "cold_chain", {"batch_age": 2880, "compressor_pressure": 350}),
 ("cc-12", "cold_chain", {"batch_age": 2879}),
 # ventilator (paw_peak in kPa: 40 mbar = 4.0 kPa, 60 mbar = 6.0 kPa; O2 supply in kPa; battery time in s)
 ("vt-01", "ventilator", {"paw_peak": 4.0}),
 ("vt-02", "ventilator", {"paw_peak": 4.01}),
 ("vt-03", "ventilator", {"paw_peak": 6.0}),
 ("vt-04", "ventilator", {"paw_peak": 5.99}),
 ("vt-05", "ventilator", {"paw_peak": 2.5, "peep": 5, "o2_supply_pressure": 500}),   # descriptive values
 ("vt-06", "ventilator", {"peep": 3}),
 ("vt-07", "ventilator", {"peep": 2.9}),
 ("vt-08", "ventilator", {"minute_volume": 2.9, "apnoea_time": 15}),
 ("vt-09", "ventilator", {"minute_volume": 3.0, "apnoea_time": 20}),
 ("vt-10", "ventilator", {"minute_volume": 2.0, "apnoea_time": 14.9}),
 ("vt-11", "ventilator", {"minute_volume": 0.4}),                      # duration rule: never in query
 ("vt-12", "ventilator", {"o2_supply_pressure": 270}),
 ("vt-13", "ventilator", {"o2_supply_pressure": 269.9}),
 ("vt-14", "ventilator", {"o2_supply_pressure": 600}),
 ("vt-15", "ventilator", {"o2_supply_pressure": 600.1}),
 ("vt-16", "ventilator", {"battery_time": 600}),
 ("vt-17", "ventilator", {"battery_time": 599}),
 ("vt-18", "ventilator", {"spo2": 89, "fio2": 79}),
 ("vt-19", "ventilator", {"spo2": 89, "fio2": 80}),
 ("vt-20", "ventilator", {"spo2": 89}),                               # unless-parameter absent
 ("vt-21", "ventilator", {"spo2": 90, "fio2": 61, "peep": 10}),
 ("vt-22", "ventilator", {"spo2": 95, "fio2": 61, "peep": 9.9}),
 ("vt-23", "ventilator", {"fio2": 60, "peep": 12}),
 ("vt-24", "ventilator", {"spo2": 84.9, "fio2": 85}),
 ("vt-25", "ventilator", {"spo2": 84, "fio2": "nan"}),
 ("vt-26", "ventilator", {"airway_temperature": 41}),
 ("vt-27", "ventilator", {"airway_temperature": 41.5}),
 ("vt-28", "ventilator", {"paw_peak": 20, "peep": 2}),                 # paw out of range -> invalid
 ("vt-29", "ventilator", {"o2_supply_pressure": 1200}),                # out of range: outside must not fire
 ("vt-30", "ventilator", {"battery_time": 600, "airway_temperature": 41, "spo2": 90, "fio2": 40,
                          "peep": 5, "paw_peak": 2.0, "minute_volume": 8, "apnoea_time": 0,
                          "o2_supply_pressure": 500}),                   # everything normal
 # aircraft_fuel_hydraulics (altitude in m: 41,000 ft = 12496.8 m, 35,000 ft = 10668 m;
 #   airspeed in km/h: 270 kt = 500.04, 230 kt = 425.96; hyd fluid in degF: 105 C = 221 F, 95 C = 203 F)
 ("af-01", "aircraft_fuel_hydraulics", {"fuel_temperature": 54}),
 ("af-02", "aircraft_fuel_hydraulics", {"fuel_temperature": 54.5}),
 ("af-03", "aircraft_fuel_hydraulics", {"fuel_temperature": -44}),
 ("af-04", "aircraft_fuel_hydraulics", {"fuel_temperature": -44.1}),
 ("af-05", "aircraft_fuel_hydraulics", {"fuel_temperature": -36, "altitude": 10668}),
 ("af-06", "aircraft_fuel_hydraulics", {"fuel_temperature": -36, "altitude": 10668.5}),
 ("af-07", "aircraft_fuel_hydraulics", {"fuel_temperature": -35, "altitude": 11000}),
 ("af-08", "aircraft_fuel_hydraulics", {"fuel_temperature": -45, "altitude": 12496.8}),
 ("af-09", "aircraft_fuel_hydraulics", {"altitude": 12496.9}),
 ("af-10", "aircraft_fuel_hydraulics", {"airspeed": 425.96}),
 ("af-11", "aircraft_fuel_hydraulics", {"airspeed": 425.9}),
 ("af-12", "aircraft_fuel_hydraulics", {"airspeed": 500.04}),
 ("af-13", "aircraft_fuel_hydraulics", {"airspeed": 500.1}),
 ("af-14", "aircraft_fuel_hydraulics", {"hyd_pressure_a": 3000}),       # descriptive normal pressure
 ("af-15", "aircraft_fuel_hydraulics", {"hyd_pressure_a": 2799, "hyd_fluid_temperature": 203}),
 ("af-16", "aircraft_fuel_hydraulics", {"hyd_pressure_a": 2799, "hyd_fluid_temperature": 203.5}),
 ("af-17", "aircraft_fuel_hydraulics", {"hyd_pressure_a": 2800, "hyd_fluid_temperature": 230}),
 ("af-18", "aircraft_fuel_hydraulics", {"reservoir_quantity": 25}),
 ("af-19", "aircraft_fuel_hydraulics", {"reservoir_quantity": 25.5, "hyd_pressure_a": 1400}),
 ("af-20", "aircraft_fuel_hydraulics", {"hyd_fluid_temperature": 221}),
 ("af-21", "aircraft_fuel_hydraulics", {"hyd_fluid_temperature": 221.5}),
 ("af-22", "aircraft_fuel_hydraulics", {"hyd_pressure_a": 3350}),
 ("af-23", "aircraft_fuel_hydraulics", {"hyd_pressure_a": 3351}),
 ("af-24", "aircraft_fuel_hydraulics", {"hyd_pressure_a": 6000, "reservoir_quantity": 30}),  # out of range
 ("af-25", "aircraft_fuel_hydraulics", {"fuel_temperature": "nan", "altitude": 13000}),
 ("af-26", "aircraft_fuel_hydraulics", {"fuel_temperature": 1}),       # "accurate to within 2 °C"
 ("af-27", "aircraft_fuel_hydraulics", {"hyd_pressure_a": 2000, "reservoir_quantity": 24}),
 # marine_diesel (lube oil in MPa: 2.5 bar = 0.25, 1.8 bar = 0.18, 3.0 bar = 0.3; exhaust in degF: 520 C = 968 F;
 #   starting air in kPa: 15 bar = 1500)
 ("md-01", "marine_diesel", {"lube_oil_pressure": 0.25, "engine_speed": 400}),
 ("md-02", "marine_diesel", {"lube_oil_pressure": 0.249, "engine_speed": 400}),
 ("md-03", "marine_diesel", {"lube_oil_pressure": 0.2, "engine_speed": 300}),
 ("md-04", "marine_diesel", {"lube_oil_pressure": 0.18, "engine_speed": 50}),
 ("md-05", "marine_diesel", {"lube_oil_pressure": 0.17, "engine_speed": 50}),
 ("md-06", "marine_diesel", {"lube_oil_pressure": 0.17}),               # unless-parameter absent
 ("md-07", "marine_diesel", {"lube_oil_pressure": 0.29, "engine_speed": 100}),
 ("md-08", "marine_diesel", {"lube_oil_pressure": 0.3, "engine_speed": 500}),
 ("md-09", "marine_diesel", {"lube_oil_pressure": 0.45, "engine_speed": 500, "jacket_water_temperature": 80,
                             "exhaust_temperature": 700, "oil_mist": 0.05, "starting_air_pressure": 3000,
                             "running_hours": 500}),                     # descriptive / procedure values
 ("md-10", "marine_diesel", {"jacket_water_temperature": 100}),
 ("md-11", "marine_diesel", {"jacket_water_temperature": 99.9}),
 ("md-12", "marine_diesel", {"exhaust_temperature": 968}),
 ("md-13", "marine_diesel", {"exhaust_temperature": 968.5}),
 ("md-14", "marine_diesel", {"oil_mist": 0.5}),
 ("md-15", "marine_diesel", {"oil_mist": 0.49}),
 ("md-16", "marine_diesel", {"starting_air_pressure": 1500}),
 ("md-17", "marine_diesel", {"starting_air_pressure": 1499}),
 ("md-18", "marine_diesel", {"engine_speed": 560}),
 ("md-19", "marine_diesel", {"engine_speed": 561}),
 ("md-20", "marine_diesel", {"running_hours": 12000}),
 ("md-21", "marine_diesel", {"running_hours": 11999}),
 ("md-22", "marine_diesel", {"lube_oil_pressure": 2, "engine_speed": 400}),   # lube oil out of range
 ("md-23", "marine_diesel", {"engine_speed": 600, "lube_oil_pressure": "nan"}),
 # sterile_filling (room temperature in degF: 18/22 deg C = 64.4/71.6 °F; N2 in kPa: 4.5 bar = 450;
 #   stopper hold time in s: 72 h = 259200 s)
 ("sf-01", "sterile_filling", {"room_dp": 10}),
 ("sf-02", "sterile_filling", {"room_dp": 9.9}),                        # duration rule: never in query
 ("sf-03", "sterile_filling", {"room_dp": 9}),                          # history "from 8 Pa to 10 Pa": no rule
 ("sf-04", "sterile_filling", {"room_dp": -5}),
 ("sf-05", "sterile_filling", {"room_dp": 15, "isolator_pressure": -90, "room_temperature": 68,
                               "relative_humidity": 45, "airflow_velocity": 0.45, "laf_fan_speed": 100,
                               "particle_count": 1000, "n2_pressure": 600, "headspace_o2": 0.5,
                               "stopper_hold_time": 3600, "tunnel_temperature": 320}),   # everything normal
 ("sf-06", "sterile_filling", {"isolator_pressure": -50}),
 ("sf-07", "sterile_filling", {"isolator_pressure": -49.9}),
 ("sf-08", "sterile_filling", {"isolator_pressure": -150}),
 ("sf-09", "sterile_filling", {"isolator_pressure": -150.5}),
 ("sf-10", "sterile_filling", {"isolator_pressure": 0}),
 ("sf-11", "sterile_filling", {"isolator_pressure": 600}),             # out of range: outside must not fire
 ("sf-12", "sterile_filling", {"room_temperature": 64.4}),
 ("sf-13", "sterile_filling", {"room_temperature": 64.3}),
 ("sf-14", "sterile_filling", {"room_temperature": 71.6}),
 ("sf-15", "sterile_filling", {"room_temperature": 71.7}),
 ("sf-16", "sterile_filling", {"room_temperature": 20}),               # a degC reading: out of the degF range
 ("sf-17", "sterile_filling", {"relative_humidity": 55}),
 ("sf-18", "sterile_filling", {"relative_humidity": 55.1}),
 ("sf-19", "sterile_filling", {"relative_humidity": 30}),
 ("sf-20", "sterile_filling", {"relative_humidity": 29.9}),
 ("sf-21", "sterile_filling", {"airflow_velocity": 0.36, "laf_fan_speed": 100}),
 ("sf-22", "sterile_filling", {"airflow_velocity": 0.54, "laf_fan_speed": 100}),
 ("sf-23", "sterile_filling", {"airflow_velocity": 0.35, "laf_fan_speed": 80}),
 ("sf-24", "sterile_filling", {"airflow_velocity": 0.55, "laf_fan_speed": 100}),
 ("sf-25", "sterile_filling", {"airflow_velocity": 0.55, "laf_fan_speed": 79.9}),
 ("sf-26", "sterile_filling", {"airflow_velocity": 0.2}),             # except-parameter absent
 ("sf-27", "sterile_filling", {"airflow_velocity": 0.2, "laf_fan_speed": "nan"}),
 ("sf-28", "sterile_filling", {"particle_count": 3520}),
 ("sf-29", "sterile_filling", {"particle_count": 3521}),
 ("sf-30", "sterile_filling", {"n2_pressure": 450}),
 ("sf-31", "sterile_filling", {"n2_pressure": 449.9}),
 ("sf-32", "sterile_filling", {"n2_pressure": 500, "headspace_o2": 2.0}),
 ("sf-33", "sterile_filling", {"headspace_o2": 2.1}),
 ("sf-34", "sterile_filling", {"n2_pressure": "nan", "headspace_o2": 2.5}),
 ("sf-35", "sterile_filling", {"n2_pressure": 4.4}),                   # 4.4 kPa is far below 450 kPa
 ("sf-36", "sterile_filling", {"stopper_hold_time": 259200}),
 ("sf-37", "sterile_filling", {"stopper_hold_time": 259201}),
 ("sf-38", "sterile_filling", {"stopper_hold_time": 72}),
 ("sf-39", "sterile_filling", {"tunnel_temperature": 300}),
 ("sf-40", "sterile_filling", {"tunnel_temperature": 299.9}),
 ("sf-41", "sterile_filling", {"tunnel_temperature": 450}),            # out of range
 ("sf-42", "sterile_filling", {"room_dp": 8, "relative_humidity": 60, "particle_count": 4000}),
 # research_reactor (pool level in m: 16 ft = 4.8768 m; heat-exchanger pressure difference in kPa: -0.2 bar = -20 kPa)
 ("rr-01", "research_reactor", {"fuel_temperature": 1000}),
 ("rr-02", "research_reactor", {"fuel_temperature": 1000.5}),
 ("rr-03", "research_reactor", {"fuel_temperature": 600, "reactor_power": 100}),
 ("rr-04", "research_reactor", {"fuel_temperature": 600.1}),
 ("rr-05", "research_reactor", {"fuel_temperature": 450}),           # basis "margin of more than 400 °C"
 ("rr-06", "research_reactor", {"reactor_power": 110}),
 ("rr-07", "research_reactor", {"reactor_power": 109.9}),
 ("rr-08", "research_reactor", {"reactor_power": 50, "fuel_temperature": 300, "pool_level": 6.0,
                                "pool_temperature": 38, "hx_dp": -50, "primary_flow": 100,
                                "secondary_flow": 100, "conductivity": 0.8, "ph": 6.0}),   # everything normal
 ("rr-09", "research_reactor", {"pool_level": 4.8768}),
 ("rr-10", "research_reactor", {"pool_level": 4.8767}),
 ("rr-11", "research_reactor", {"pool_level": 3}),
 ("rr-12", "research_reactor", {"pool_level": 16}),                  # a ft reading: out of the m range
 ("rr-13", "research_reactor", {"pool_temperature": 45}),
 ("rr-14", "research_reactor", {"pool_temperature": 45.1}),
 ("rr-15", "research_reactor", {"pool_temperature": 42}),            # duration rule: never in query
 ("rr-16", "research_reactor", {"hx_dp": -20}),
 ("rr-17", "research_reactor", {"hx_dp": -19.9}),
 ("rr-18", "research_reactor", {"hx_dp": -0.2}),                     # -0.2 kPa > -20 kPa
 ("rr-19", "research_reactor", {"hx_dp": 5}),
 ("rr-20", "research_reactor", {"hx_dp": -25}),
 ("rr-21", "research_reactor", {"primary_flow": 84.9, "reactor_power": 10.1}),
 ("rr-22", "research_reactor", {"primary_flow": 85, "reactor_power": 50}),
 ("rr-23", "research_reactor", {"primary_flow": 50, "reactor_power": 10}),
 ("rr-24", "research_reactor", {"primary_flow": 50}),
 ("rr-25", "research_reactor", {"secondary_flow": 69.9, "reactor_power": 1}),
 ("rr-26", "research_reactor", {"secondary_flow": 69.9, "reactor_power": 1.1}),
 ("rr-27", "research_reactor", {"secondary_flow": 69.9}),             # unless-parameter absent
 ("rr-28", "research_reactor", {"secondary_flow": 70, "reactor_power": 100}),
 ("rr-29", "research_reactor", {"secondary_flow": 60, "primary_flow": 60, "reactor_power": 20}),
 ("rr-30", "research_reactor", {"conductivity": 2.0}),
 ("rr-31", "research_reactor", {"conductivity": 2.1, "pool_temperature": 50}),
 ("rr-32", "research_reactor", {"conductivity": 2.1, "pool_temperature": 50.5}),
 ("rr-33", "research_reactor", {"conductivity": 2.1}),                # except-parameter absent
 ("rr-34", "research_reactor", {"conductivity": 2.1, "pool_temperature": "nan"}),
 ("rr-35", "research_reactor", {"conductivity": 1.0, "ph": 5.0}),    # typical 0.5 to 1.0 µS/cm: no rule
 ("rr-36", "research_reactor", {"ph": 7.5}),
 ("rr-37", "research_reactor", {"ph": 4.9}),
 ("rr-38", "research_reactor", {"ph": 7.6}),
 ("rr-39", "research_reactor", {"ph": 15}),                          # out of range
 ("rr-40", "research_reactor", {"reactor_power": 200, "primary_flow": 50, "fuel_temperature": 2000}),  # out of range
 # chiller_plant (temperatures in degC: 38/55/40/75 °F = 3.33../12.77../4.44../23.88.. °C, 68/41/64.4/80.6/15.8/89.6 °F
 #   = 20/5/18/27/-9/32 °C exactly; CHW DP in kPa: 8 psi = 55.158 kPa; condenser pressure in bar: 180 psi = 12.4106 bar)
 ("ch-01", "chiller_plant", {"chwst": 3.34}),
 ("ch-02", "chiller_plant", {"chwst": 3.33}),
 ("ch-03", "chiller_plant", {"chwst": -2}),
 ("ch-04", "chiller_plant", {"chwst": 15, "condenser_pressure": 9, "chw_dp": 82.7, "lead_pump_speed": 60,
                             "cwst": 24, "basin_temperature": 20, "basin_level": 80, "oawb": 18, "it_load": 70,
                             "cold_aisle_temperature": 24, "cold_aisle_dew_point": 5}),   # everything normal
 ("ch-05", "chiller_plant", {"chwst": 17}),                          # start-sequence ramp 68 -> 59 °F: no rule
 ("ch-06", "chiller_plant", {"chwst": 21}),                          # duration rule: never in query
 ("ch-07", "chiller_plant", {"chwst": 23.88}),
 ("ch-08", "chiller_plant", {"chwst": 23.89}),
 ("ch-09", "chiller_plant", {"chwst": 45}),                          # out of range
 ("ch-10", "chiller_plant", {"condenser_pressure": 12.41}),
 ("ch-11", "chiller_plant", {"condenser_pressure": 12.42}),
 ("ch-12", "chiller_plant", {"condenser_pressure": 180}),            # a psi reading: out of the bar range
 ("ch-13", "chiller_plant", {"chw_dp": 55.1, "lead_pump_speed": 95}),
 ("ch-14", "chiller_plant", {"chw_dp": 55.2, "lead_pump_speed": 100}),
 ("ch-15", "chiller_plant", {"chw_dp": 55.1, "lead_pump_speed": 94.9}),
 ("ch-16", "chiller_plant", {"chw_dp": 40}),
 ("ch-17", "chiller_plant", {"lead_pump_speed": 30}),
 ("ch-18", "chiller_plant", {"lead_pump_speed": 29.9}),
 ("ch-19", "chiller_plant", {"chw_dp": 8, "lead_pump_speed": 29}),
 ("ch-20", "chiller_plant", {"cwst": 12.77}),
 ("ch-21", "chiller_plant", {"cwst": 12.78}),
 ("ch-22", "chiller_plant", {"basin_temperature": 4.9, "basin_level": 30}),
 ("ch-23", "chiller_plant", {"basin_temperature": 4.9, "basin_level": 29.9}),
 ("ch-24", "chiller_plant", {"basin_temperature": 5, "basin_level": 80}),
 ("ch-25", "chiller_plant", {"basin_temperature": -2}),              # unless-parameter absent
 ("ch-26", "chiller_plant", {"basin_temperature": -2, "basin_level": "nan"}),
 ("ch-27", "chiller_plant", {"oawb": 4.44, "it_load": 20.1}),
 ("ch-28", "chiller_plant", {"oawb": 4.45, "it_load": 50}),
 ("ch-29", "chiller_plant", {"oawb": 4.44, "it_load": 20}),
 ("ch-30", "chiller_plant", {"oawb": -5, "it_load": 80}),
 ("ch-31", "chiller_plant", {"cold_aisle_temperature": 18}),
 ("ch-32", "chiller_plant", {"cold_aisle_temperature": 17.9}),
 ("ch-33", "chiller_plant", {"cold_aisle_temperature": 27}),
 ("ch-34", "chiller_plant", {"cold_aisle_temperature": 27.1}),
 ("ch-35", "chiller_plant", {"cold_aisle_temperature": 32}),
 ("ch-36", "chiller_plant", {"cold_aisle_temperature": 32.1}),
 ("ch-37", "chiller_plant", {"cold_aisle_temperature": 80.6}),        # a degF reading: out of the degC range
 ("ch-38", "chiller_plant", {"cold_aisle_dew_point": -9}),
 ("ch-39", "chiller_plant", {"cold_aisle_dew_point": -9.1}),
 ("ch-40", "chiller_plant", {"cold_aisle_dew_point": 15.8}),
 ("ch-41", "chiller_plant", {"chwst": 3.0, "cold_aisle_temperature": 33}),
 # clinical_lab (pCO2/pO2 in kPa: 70 mmHg = 9.33257 kPa, 40 mmHg = 5.33289 kPa)
 ("cl-01", "clinical_lab", {"potassium": 2.8}),
 ("cl-02", "clinical_lab", {"potassium": 2.79}),
 ("cl-03", "clinical_lab", {"potassium": 6.2}),
 ("cl-04", "clinical_lab", {"potassium": 6.21}),
 ("cl-05", "clinical_lab", {"potassium": 3.4}),                        # below the reference interval: no rule
 ("cl-06", "clinical_lab", {"potassium": 6.8}),                        # the procedure's example value
 ("cl-07", "clinical_lab", {"potassium": 6.4}),                        # history "lowered from 6.5 to 6.2"
 ("cl-08", "clinical_lab", {"potassium": 16}),                         # out of range
 ("cl-09", "clinical_lab", {"sodium": 120}),
 ("cl-10", "clinical_lab", {"sodium": 119.9}),
 ("cl-11", "clinical_lab", {"sodium": 160}),
 ("cl-12", "clinical_lab", {"sodium": 160.5}),
 ("cl-13", "clinical_lab", {"glucose": 2.5}),
 ("cl-14", "clinical_lab", {"glucose": 2.4}),
 ("cl-15", "clinical_lab", {"glucose": 25.0}),
 ("cl-16", "clinical_lab", {"glucose": 25.1}),
 ("cl-17", "clinical_lab", {"inr": 5.0}),
 ("cl-18", "clinical_lab", {"inr": 5.1}),
 ("cl-19", "clinical_lab", {"inr": 4.5}),
 ("cl-20", "clinical_lab", {"inr": 4.4}),
 ("cl-21", "clinical_lab", {"inr": 8.1, "haemoglobin": 79}),
 ("cl-22", "clinical_lab", {"inr": 8.0, "haemoglobin": 70}),
 ("cl-23", "clinical_lab", {"inr": 9, "haemoglobin": 80}),
 ("cl-24", "clinical_lab", {"inr": 9, "haemoglobin": 60}),
 ("cl-25", "clinical_lab", {"haemoglobin": 60.5}),
 ("cl-26", "clinical_lab", {"inr": 9, "haemoglobin": "nan"}),
 ("cl-27", "clinical_lab", {"arterial_ph": 7.2}),
 ("cl-28", "clinical_lab", {"arterial_ph": 7.19}),
 ("cl-29", "clinical_lab", {"arterial_ph": 7.6}),
 ("cl-30", "clinical_lab", {"arterial_ph": 7.61}),
 ("cl-31", "clinical_lab", {"po2": 5.332}),
 ("cl-32", "clinical_lab", {"po2": 5.333}),
 ("cl-33", "clinical_lab", {"po2": 40}),                               # an mmHg-sized reading: 40 kPa is not low
 ("cl-34", "clinical_lab", {"pco2": 9.333, "arterial_ph": 7.29}),
 ("cl-35", "clinical_lab", {"pco2": 9.332, "arterial_ph": 7.1}),
 ("cl-36", "clinical_lab", {"pco2": 9.5, "arterial_ph": 7.3}),
 ("cl-37", "clinical_lab", {"pco2": 70, "arterial_ph": 7.25}),         # pCO2 out of the kPa range
 ("cl-38", "clinical_lab", {"pco2": 12}),                              # pH absent
 ("cl-39", "clinical_lab", {"lactate": 4.0, "arterial_ph": 7.34}),
 ("cl-40", "clinical_lab", {"lactate": 3.9, "arterial_ph": 7.0}),
 ("cl-41", "clinical_lab", {"lactate": 6, "arterial_ph": 7.35}),
 ("cl-42", "clinical_lab", {"lactate": 6, "arterial_ph": "nan"}),
 ("cl-43", "clinical_lab", {"fridge_temperature": 6.5}),               # duration rule: never in query
 ("cl-44", "clinical_lab", {"fridge_temperature": 8}),
 ("cl-45", "clinical_lab", {"fridge_temperature": 8.1}),
 ("cl-46", "clinical_lab", {"fridge_temperature": 1}),
 ("cl-47", "clinical_lab", {"fridge_temperature": 0.9}),
 ("cl-48", "clinical_lab", {"freezer_temperature": -25}),
 ("cl-49", "clinical_lab", {"freezer_temperature": -24.9}),
 ("cl-50", "clinical_lab", {"freezer_temperature": -18}),
 ("cl-51", "clinical_lab", {"freezer_temperature": -17.5}),
 ("cl-52", "clinical_lab", {"freezer_temperature": -17.5, "fridge_temperature": "nan"}),
 ("cl-53", "clinical_lab", {"freezer_temperature": -85, "fridge_temperature": 0.5}),   # freezer out of range
 ("cl-54", "clinical_lab", {"freezer_temperature": "nan", "fridge_temperature": 4}),
 ("cl-55", "clinical_lab", {"potassium": 4.2, "sodium": 140, "glucose": 5.5, "inr": 1.0, "arterial_ph": 7.4,
                            "pco2": 5.3, "po2": 12, "lactate": 1.2, "haemoglobin": 135,
                            "fridge_temperature": 4, "freezer_temperature": -30}),   # everything normal
 # mine_ventilation (fan pressure in Pa: 1.2 kPa = 1200 Pa, 0.5 kPa = 500 Pa)
 ("mv-01", "mine_ventilation", {"methane": 0.99}),
 ("mv-02", "mine_ventilation", {"methane": 1.0}),
 ("mv-03", "mine_ventilation", {"methane": 1.01}),
 ("mv-04", "mine_ventilation", {"methane": 1.25}),
 ("mv-05", "mine_ventilation", {"methane": 1.26}),
 ("mv-06", "mine_ventilation", {"methane": 1.99}),
 ("mv-07", "mine_ventilation", {"methane": 2.0}),
 ("mv-08", "mine_ventilation", {"methane": 0.4}),                      # typical 0.2 to 0.5 %: no rule
 ("mv-09", "mine_ventilation", {"methane": 2.5}),                      # calibration gas value adds nothing
 ("mv-10", "mine_ventilation", {"methane": 101}),                      # out of range
 ("mv-11", "mine_ventilation", {"methane": "nan"}),
 ("mv-12", "mine_ventilation", {"return_methane": 0.8}),
 ("mv-13", "mine_ventilation", {"return_methane": 0.79}),
 ("mv-14", "mine_ventilation", {"return_methane": 1.5}),
 ("mv-15", "mine_ventilation", {"return_methane": 1.51}),
 ("mv-16", "mine_ventilation", {"return_methane": 1.2, "methane": 0.3}),
 ("mv-17", "mine_ventilation", {"oxygen": 19.5, "co2": 0.5}),
 ("mv-18", "mine_ventilation", {"oxygen": 19.4}),
 ("mv-19", "mine_ventilation", {"co2": 0.51, "oxygen": 20.9}),
 ("mv-20", "mine_ventilation", {"co2": 0.6}),                          # oxygen absent
 ("mv-21", "mine_ventilation", {"oxygen": 18}),
 ("mv-22", "mine_ventilation", {"oxygen": 17.9, "co2": "nan"}),
 ("mv-23", "mine_ventilation", {"co": 25}),
 ("mv-24", "mine_ventilation", {"co": 25.5}),
 ("mv-25", "mine_ventilation", {"co": 50}),
 ("mv-26", "mine_ventilation", {"co": 51}),
 ("mv-27", "mine_ventilation", {"co": 120}),                           # history value adds nothing
 ("mv-28", "mine_ventilation", {"co": 1200, "oxygen": 20.9}),          # CO out of range
 ("mv-29", "mine_ventilation", {"face_velocity": 0.3}),
 ("mv-30", "mine_ventilation", {"face_velocity": 0.29}),
 ("mv-31", "mine_ventilation", {"face_velocity": 4.0}),
 ("mv-32", "mine_ventilation", {"face_velocity": 4.01}),
 ("mv-33", "mine_ventilation", {"wet_bulb": 27.1, "face_velocity": 0.49}),
 ("mv-34", "mine_ventilation", {"wet_bulb": 27, "face_velocity": 0.3}),
 ("mv-35", "mine_ventilation", {"wet_bulb": 29.5, "face_velocity": 0.5}),
 ("mv-36", "mine_ventilation", {"wet_bulb": 30, "face_velocity": 0.2}),
 ("mv-37", "mine_ventilation", {"wet_bulb": 30}),                      # velocity absent
 ("mv-38", "mine_ventilation", {"intake_temperature": 1.9, "fan_pressure": 500}),
 ("mv-39", "mine_ventilation", {"intake_temperature": 2, "fan_pressure": 3000}),
 ("mv-40", "mine_ventilation", {"intake_temperature": 1.9, "fan_pressure": 499}),
 ("mv-41", "mine_ventilation", {"intake_temperature": 1.9}),           # except-parameter absent
 ("mv-42", "mine_ventilation", {"intake_temperature": -5, "fan_pressure": 3000}),
 ("mv-43", "mine_ventilation", {"intake_temperature": -4.9, "fan_pressure": 3000}),
 ("mv-44", "mine_ventilation", {"intake_temperature": -15, "fan_pressure": 3000}),
 ("mv-45", "mine_ventilation", {"intake_temperature": -15.1, "fan_pressure": 3000}),
 ("mv-46", "mine_ventilation", {"intake_temperature": -10, "fan_pressure": "nan"}),
 ("mv-47", "mine_ventilation", {"fan_pressure": 1000}),                # duration rule: never in query
 ("mv-48", "mine_ventilation", {"fan_pressure": 3200, "methane": 0.3}),   # design fan pressure 3.2 kPa
 ("mv-49", "mine_ventilation", {"fan_pressure": 1.2, "intake_temperature": 0}),   # 1.2 Pa < 500 Pa: except holds
 ("mv-50", "mine_ventilation", {"methane": 0.3, "return_methane": 0.5, "oxygen": 20.9, "co2": 0.1, "co": 5,
                                "face_velocity": 2.5, "wet_bulb": 24, "intake_temperature": 12,
                                "fan_pressure": 3200}),                   # everything normal
 # lng_tank (tank pressure in kPa: 260/230/30/-3/280 mbar = 26/23/3/-0.3/28 kPa; tank temperatures in K:
 #   -158/+5/-60/-20 °C = 115.15/278.15/213.15/253.15 K; BOG suction in degC: 143 K = -130.15 °C)
 ("lng-01", "lng_tank", {"tank_pressure": 15}),                        # normal / set point 150 mbar
 ("lng-02", "lng_tank", {"tank_pressure": 26}),
 ("lng-03", "lng_tank", {"tank_pressure": 26.1}),
 ("lng-04", "lng_tank", {"tank_pressure": 28}),
 ("lng-05", "lng_tank", {"tank_pressure": 28.1}),
 ("lng-06", "lng_tank", {"tank_pressure": 29}),                        # PSV set pressure 290 mbar: descriptive
 ("lng-07", "lng_tank", {"tank_pressure": 260}),                       # an mbar reading: out of the kPa range
 ("lng-08", "lng_tank", {"tank_pressure": 24}),                        # duration rule: never in query
 ("lng-09", "lng_tank", {"tank_pressure": 2.9, "bog_load": 50.1}),
 ("lng-10", "lng_tank", {"tank_pressure": 3, "bog_load": 100}),
 ("lng-11", "lng_tank", {"tank_pressure": 2.9, "bog_load": 50}),
 ("lng-12", "lng_tank", {"tank_pressure": 2.9}),                       # load absent
 ("lng-13", "lng_tank", {"tank_pressure": 2.9, "bog_load": "nan"}),
 ("lng-14", "lng_tank", {"tank_pressure": -0.3}),
 ("lng-15", "lng_tank", {"tank_pressure": -0.29}),
 ("lng-16", "lng_tank", {"tank_pressure": -0.5, "bog_load": 60}),
 ("lng-17", "lng_tank", {"tank_pressure": -3}),
 ("lng-18", "lng_tank", {"tank_pressure": -11}),                       # out of range
 ("lng-19", "lng_tank", {"roof_gas": 9.9}),
 ("lng-20", "lng_tank", {"roof_gas": 10}),
 ("lng-21", "lng_tank", {"roof_gas": 40}),
 ("lng-22", "lng_tank", {"roof_gas": 40.5}),
 ("lng-23", "lng_tank", {"roof_gas": 45, "tank_pressure": "nan"}),
 ("lng-24", "lng_tank", {"roof_gas": 5, "tank_pressure": 28.5}),
 ("lng-25", "lng_tank", {"liquid_level": 89.9}),
 ("lng-26", "lng_tank", {"liquid_level": 90}),
 ("lng-27", "lng_tank", {"liquid_level": 96}),                         # history "lowered from 97 % to 95 %"
 ("lng-28", "lng_tank", {"liquid_level": 4}),
 ("lng-29", "lng_tank", {"liquid_level": 3.9}),
 ("lng-30", "lng_tank", {"liquid_level": 105}),                        # out of range
 ("lng-31", "lng_tank", {"liquid_level": 0}),
 ("lng-32", "lng_tank", {"liquid_temperature": 115.15}),
 ("lng-33", "lng_tank", {"liquid_temperature": 115.2}),
 ("lng-34", "lng_tank", {"liquid_temperature": 112}),                  # "stored at about -161 °C (112 K)"
 ("lng-35", "lng_tank", {"liquid_temperature": -150}),                 # a degC reading: out of the K range
 ("lng-36", "lng_tank", {"slab_temperature": 278.15}),
 ("lng-37", "lng_tank", {"slab_temperature": 278.1}),
 ("lng-38", "lng_tank", {"slab_temperature": 5}),                      # a degC reading: out of the K range
 ("lng-39", "lng_tank", {"annular_temperature": 253.15}),
 ("lng-40", "lng_tank", {"annular_temperature": 253.2}),
 ("lng-41", "lng_tank", {"annular_temperature": 213.15}),
 ("lng-42", "lng_tank", {"annular_temperature": 213.1}),
 ("lng-43", "lng_tank", {"annular_temperature": 233.15}),
 ("lng-44", "lng_tank", {"annular_temperature": 290}),
 ("lng-45", "lng_tank", {"bog_suction_temperature": -130.15}),
 ("lng-46", "lng_tank", {"bog_suction_temperature": -130.1}),
 ("lng-47", "lng_tank", {"bog_suction_temperature": -140}),
 ("lng-48", "lng_tank", {"bog_suction_temperature": 143}),             # a K reading: out of the degC range
 ("lng-49", "lng_tank", {"tank_pressure": 15, "bog_load": 100, "liquid_level": 60, "liquid_temperature": 112,
                         "slab_temperature": 283.15, "annular_temperature": 288.15,
                         "bog_suction_temperature": -150, "roof_gas": 0}),   # everything normal
 # wind_turbine (wind speed in km/h: 15/20/25 m/s = 54/72/90 km/h; accumulator in MPa: 160 bar = 16 MPa;
 #   grid in kV: 621/759 V = 0.621/0.759 kV; ambient in degF: -10/-20 °C = 14/-4 °F)
 ("wtg-01", "wind_turbine", {"wind_speed": 90}),
 ("wtg-02", "wind_turbine", {"wind_speed": 90.1}),
 ("wtg-03", "wind_turbine", {"wind_speed": 54}),
 ("wtg-04", "wind_turbine", {"wind_speed": 54.1}),
 ("wtg-05", "wind_turbine", {"wind_speed": 80}),                        # duration rule: never in query
 ("wtg-06", "wind_turbine", {"wind_speed": 25}),                        # an m/s-sized reading: 25 km/h is calm
 ("wtg-07", "wind_turbine", {"wind_speed": 41.4}),                      # rated wind speed 11.5 m/s: descriptive
 ("wtg-08", "wind_turbine", {"wind_speed": 100.8}),                     # history "stopped at 28 m/s"
 ("wtg-09", "wind_turbine", {"wind_speed": 300}),                       # out of range
 ("wtg-10", "wind_turbine", {"wind_speed": "nan"}),
 ("wtg-11", "wind_turbine", {"rotor_speed": 14.8}),
 ("wtg-12", "wind_turbine", {"rotor_speed": 14.9}),
 ("wtg-13", "wind_turbine", {"rotor_speed": 2}),
 ("wtg-14", "wind_turbine", {"rotor_speed": 1.9}),
 ("wtg-15", "wind_turbine", {"rotor_speed": 12.1}),                     # rated rotor speed: only the brake rule
 ("wtg-16", "wind_turbine", {"rotor_speed": 35}),                       # out of range
 ("wtg-17", "wind_turbine", {"generator_speed": 1680}),
 ("wtg-18", "wind_turbine", {"generator_speed": 1680.5}),
 ("wtg-19", "wind_turbine", {"gearbox_oil_temperature": 69.9}),
 ("wtg-20", "wind_turbine", {"gearbox_oil_temperature": 70}),
 ("wtg-21", "wind_turbine", {"gearbox_oil_temperature": 80}),
 ("wtg-22", "wind_turbine", {"gearbox_oil_temperature": 80.1}),
 ("wtg-23", "wind_turbine", {"gearbox_bearing_temperature": 90.1, "gearbox_oil_temperature": 59.9}),
 ("wtg-24", "wind_turbine", {"gearbox_bearing_temperature": 90, "gearbox_oil_temperature": 50}),
 ("wtg-25", "wind_turbine", {"gearbox_bearing_temperature": 95, "gearbox_oil_temperature": 60}),
 ("wtg-26", "wind_turbine", {"gearbox_bearing_temperature": 95}),       # oil temperature absent
 ("wtg-27", "wind_turbine", {"gearbox_bearing_temperature": 95, "gearbox_oil_temperature": "nan"}),
 ("wtg-28", "wind_turbine", {"winding_temperature": 129.9}),
 ("wtg-29", "wind_turbine", {"winding_temperature": 130}),
 ("wtg-30", "wind_turbine", {"winding_temperature": 145}),
 ("wtg-31", "wind_turbine", {"winding_temperature": 145.1}),
 ("wtg-32", "wind_turbine", {"winding_temperature": 300}),              # out of range
 ("wtg-33", "wind_turbine", {"accumulator_pressure": 16}),
 ("wtg-34", "wind_turbine", {"accumulator_pressure": 15.9}),
 ("wtg-35", "wind_turbine", {"accumulator_pressure": 9}),               # nitrogen pre-charge 90 bar adds nothing
 ("wtg-36", "wind_turbine", {"accumulator_pressure": 160}),             # a bar-sized reading: out of the MPa range
 ("wtg-37", "wind_turbine", {"accumulator_pressure": 20}),
 ("wtg-38", "wind_turbine", {"grid_voltage": 0.621}),
 ("wtg-39", "wind_turbine", {"grid_voltage": 0.62}),
 ("wtg-40", "wind_turbine", {"grid_voltage": 0.759}),
 ("wtg-41", "wind_turbine", {"grid_voltage": 0.76}),
 ("wtg-42", "wind_turbine", {"grid_voltage": 690}),                     # a V-sized reading: out of the kV range
 ("wtg-43", "wind_turbine", {"nacelle_humidity": 70.1, "ambient_temperature": 14}),
 ("wtg-44", "wind_turbine", {"nacelle_humidity": 70.1, "ambient_temperature": 13.9}),
 ("wtg-45", "wind_turbine", {"nacelle_humidity": 70, "ambient_temperature": 50}),
 ("wtg-46", "wind_turbine", {"nacelle_humidity": 85}),                  # unless-parameter absent
 ("wtg-47", "wind_turbine", {"nacelle_humidity": 85, "ambient_temperature": "nan"}),
 ("wtg-48", "wind_turbine", {"ambient_temperature": -4}),
 ("wtg-49", "wind_turbine", {"ambient_temperature": -4.1}),
 ("wtg-50", "wind_turbine", {"ambient_temperature": -25, "nacelle_humidity": 90}),   # -25 °F: below -4 °F and 14 °F
 ("wtg-51", "wind_turbine", {"ambient_temperature": -70}),              # out of range
 ("wtg-52", "wind_turbine", {"wind_speed": 10, "rotor_speed": 0, "generator_speed": 0, "gearbox_oil_temperature": 30,
                            "gearbox_bearing_temperature": 30, "winding_temperature": 40, "accumulator_pressure": 20,
                            "grid_voltage": 0.69, "nacelle_humidity": 50, "ambient_temperature": 50}),   # standstill: nothing
 ("wtg-53", "wind_turbine", {"wind_speed": 40, "rotor_speed": 11, "generator_speed": 1250, "gearbox_oil_temperature": 55,
                            "gearbox_bearing_temperature": 65, "winding_temperature": 100, "accumulator_pressure": 20,
                            "grid_voltage": 0.69, "nacelle_humidity": 50, "ambient_temperature": 50}),   # running: brake rule only
 ("wtg-54", "wind_turbine", {"wind_speed": 91, "rotor_speed": 15, "generator_speed": 1700, "gearbox_oil_temperature": 85}),
 # haccp_cook_chill (core temperature in degF: 75 °C = 167 °F; freezer in degF: -18 °C = -0.4 °F;
 #   steam in kPa: 3 bar = 300 kPa; door open time in s: 3 min = 180 s)
 ("hc-01", "haccp_cook_chill", {"core_temperature": 167}),
 ("hc-02", "haccp_cook_chill", {"core_temperature": 166.9}),          # provided-that parameter absent
 ("hc-03", "haccp_cook_chill", {"core_temperature": 166.9, "hot_hold_temperature": 63}),
 ("hc-04", "haccp_cook_chill", {"core_temperature": 166.9, "hot_hold_temperature": 62.9}),
 ("hc-05", "haccp_cook_chill", {"core_temperature": 158, "hot_hold_temperature": 70}),   # validation study 70 °C
 ("hc-06", "haccp_cook_chill", {"core_temperature": 75}),              # a °C-sized reading: 75 °F is undercooked
 ("hc-07", "haccp_cook_chill", {"core_temperature": 300}),             # out of range
 ("hc-08", "haccp_cook_chill", {"core_temperature": "nan", "hot_hold_temperature": 63}),
 ("hc-09", "haccp_cook_chill", {"core_temperature": 170, "hot_hold_temperature": 63}),
 ("hc-10", "haccp_cook_chill", {"oven_temperature": 180}),
 ("hc-11", "haccp_cook_chill", {"oven_temperature": 179.9}),
 ("hc-12", "haccp_cook_chill", {"hot_hold_temperature": 63}),
 ("hc-13", "haccp_cook_chill", {"hot_hold_temperature": 62.9}),
 ("hc-14", "haccp_cook_chill", {"polar_compounds": 24}),
 ("hc-15", "haccp_cook_chill", {"polar_compounds": 24.1}),
 ("hc-16", "haccp_cook_chill", {"steam_pressure": 300}),
 ("hc-17", "haccp_cook_chill", {"steam_pressure": 300.1}),
 ("hc-18", "haccp_cook_chill", {"steam_pressure": 3.5}),               # a bar-sized reading: 3.5 kPa is low
 ("hc-19", "haccp_cook_chill", {"free_chlorine": 50}),
 ("hc-20", "haccp_cook_chill", {"free_chlorine": 49.9}),
 ("hc-21", "haccp_cook_chill", {"free_chlorine": 200}),
 ("hc-22", "haccp_cook_chill", {"free_chlorine": 200.5}),
 ("hc-23", "haccp_cook_chill", {"free_chlorine": 25}),
 ("hc-24", "haccp_cook_chill", {"free_chlorine": 24.9}),
 ("hc-25", "haccp_cook_chill", {"free_chlorine": 100, "wash_water_temperature": 12}),
 ("hc-26", "haccp_cook_chill", {"wash_water_temperature": 12.1}),      # chlorine absent: fires through the other side
 ("hc-27", "haccp_cook_chill", {"wash_water_temperature": 12.1, "free_chlorine": "nan"}),
 ("hc-28", "haccp_cook_chill", {"free_chlorine": 1500, "wash_water_temperature": 5}),   # out of range
 ("hc-29", "haccp_cook_chill", {"sauce_ph": 4.19}),
 ("hc-30", "haccp_cook_chill", {"sauce_ph": 4.2}),
 ("hc-31", "haccp_cook_chill", {"sauce_ph": 4.6}),
 ("hc-32", "haccp_cook_chill", {"sauce_ph": "nan"}),
 ("hc-33", "haccp_cook_chill", {"sauce_ph": 15}),                      # out of range
 ("hc-34", "haccp_cook_chill", {"store_temperature": 0}),
 ("hc-35", "haccp_cook_chill", {"store_temperature": -0.1}),
 ("hc-36", "haccp_cook_chill", {"store_temperature": 5}),
 ("hc-37", "haccp_cook_chill", {"store_temperature": 5.1}),
 ("hc-38", "haccp_cook_chill", {"store_temperature": 2}),              # set point: descriptive
 ("hc-39", "haccp_cook_chill", {"store_temperature": 6, "door_open_time": 200}),
 ("hc-40", "haccp_cook_chill", {"store_temperature": 6.1, "door_open_time": 180}),
 ("hc-41", "haccp_cook_chill", {"store_temperature": 6.1, "door_open_time": 179}),
 ("hc-42", "haccp_cook_chill", {"store_temperature": 6.1}),            # except-parameter absent
 ("hc-43", "haccp_cook_chill", {"store_temperature": 6.1, "door_open_time": "nan"}),
 ("hc-44", "haccp_cook_chill", {"store_temperature": 9, "door_open_time": 300}),   # duration rule: never in query
 ("hc-45", "haccp_cook_chill", {"store_temperature": 50}),             # out of range
 ("hc-46", "haccp_cook_chill", {"store_temperature": 6.1, "door_open_time": 3}),   # a min-sized reading: 3 s
 ("hc-47", "haccp_cook_chill", {"freezer_temperature": -0.4}),
 ("hc-48", "haccp_cook_chill", {"freezer_temperature": -0.3}),
 ("hc-49", "haccp_cook_chill", {"freezer_temperature": -18}),          # a °C-sized reading: -18 °F is cold enough
 ("hc-50", "haccp_cook_chill", {"freezer_temperature": 0}),
 ("hc-51", "haccp_cook_chill", {"freezer_temperature": -70}),          # out of range
 ("hc-52", "haccp_cook_chill", {"core_temperature": 170, "hot_hold_temperature": 70, "oven_temperature": 200,
                                "polar_compounds": 10, "steam_pressure": 200, "free_chlorine": 100,
                                "wash_water_temperature": 8, "sauce_ph": 3.8, "store_temperature": 2,
                                "door_open_time": 0, "freezer_temperature": -5}),   # everything normal
 # haemodialysis (TMP in kPa: 300/450 mmHg = 39.99671/59.99507 kPa; dialysate temperature in degF:
 #   35.0/39.0/36.5 °C = 95/102.2/97.7 °F)
 ("hd-01", "haemodialysis", {"venous_pressure": 300}),
 ("hd-02", "haemodialysis", {"venous_pressure": 300.5}),
 ("hd-03", "haemodialysis", {"venous_pressure": 20}),
 ("hd-04", "haemodialysis", {"venous_pressure": 19.9}),
 ("hd-05", "haemodialysis", {"venous_pressure": 150}),                 # typical 100–200 mmHg: descriptive
 ("hd-06", "haemodialysis", {"venous_pressure": -5}),
 ("hd-07", "haemodialysis", {"venous_pressure": 650}),                 # out of range
 ("hd-08", "haemodialysis", {"venous_pressure": "nan"}),
 ("hd-09", "haemodialysis", {"arterial_pressure": -250, "blood_flow": 200}),
 ("hd-10", "haemodialysis", {"arterial_pressure": -250.5, "blood_flow": 200}),
 ("hd-11", "haemodialysis", {"arterial_pressure": -200, "blood_flow": 300}),
 ("hd-12", "haemodialysis", {"arterial_pressure": -200.5, "blood_flow": 300}),
 ("hd-13", "haemodialysis", {"arterial_pressure": -200.5, "blood_flow": 250}),
 ("hd-14", "haemodialysis", {"arterial_pressure": -200.5, "blood_flow": 250.5}),
 ("hd-15", "haemodialysis", {"arterial_pressure": -220}),              # unless-parameter absent
 ("hd-16", "haemodialysis", {"arterial_pressure": -220, "blood_flow": "nan"}),
 ("hd-17", "haemodialysis", {"arterial_pressure": -260, "blood_flow": 300}),
 ("hd-18", "haemodialysis", {"arterial_pressure": -600, "blood_flow": 300}),   # out of range
 ("hd-19", "haemodialysis", {"arterial_pressure": -220, "blood_flow": 750}),   # blood flow out of range
 ("hd-20", "haemodialysis", {"tmp": 45}),                              # duration rule: never in query
 ("hd-21", "haemodialysis", {"tmp": 59.99}),
 ("hd-22", "haemodialysis", {"tmp": 60}),
 ("hd-23", "haemodialysis", {"tmp": 450}),                             # an mmHg-sized reading: out of the kPa range
 ("hd-24", "haemodialysis", {"dialysate_temperature": 95}),
 ("hd-25", "haemodialysis", {"dialysate_temperature": 94.9}),
 ("hd-26", "haemodialysis", {"dialysate_temperature": 102.2}),
 ("hd-27", "haemodialysis", {"dialysate_temperature": 102.3}),
 ("hd-28", "haemodialysis", {"dialysate_temperature": 97.7}),          # set point 36.5 °C in the procedure
 ("hd-29", "haemodialysis", {"dialysate_temperature": 37}),            # a °C-sized reading: out of the °F range
 ("hd-30", "haemodialysis", {"dialysate_temperature": "nan"}),
 ("hd-31", "haemodialysis", {"conductivity": 13}),
 ("hd-32", "haemodialysis", {"conductivity": 12.9}),
 ("hd-33", "haemodialysis", {"conductivity": 15}),
 ("hd-34", "haemodialysis", {"conductivity": 15.1}),
 ("hd-35", "haemodialysis", {"conductivity": 140}),                    # out of range
 ("hd-36", "haemodialysis", {"systolic_pressure": 90}),
 ("hd-37", "haemodialysis", {"systolic_pressure": 89}),
 ("hd-38", "haemodialysis", {"ktv": 1.2}),
 ("hd-39", "haemodialysis", {"ktv": 1.19}),
 ("hd-40", "haemodialysis", {"blood_flow": 50, "arterial_pressure": -100}),   # blood flows named in actions
 ("hd-41", "haemodialysis", {"venous_pressure": 150, "arterial_pressure": -150, "blood_flow": 300, "tmp": 20,
                             "dialysate_temperature": 97.7, "conductivity": 14, "systolic_pressure": 120,
                             "ktv": 1.4}),                            # everything normal
 ("hd-42", "haemodialysis", {"venous_pressure": 350, "tmp": 65, "conductivity": 16, "systolic_pressure": 80}),
 # gas_cabinet (cylinder/purge/SDS pressures in kPa: 150/1,600/80 psig = 1034.2136/11031.6117/551.5806 kPa,
 #   -14.0/-0.5 psig = -96.5266/-3.4474 kPa; delivery in bar: 60/25/35 psig = 4.13685/1.72369/2.41316 bar;
 #   exhaust in kPa: -250/-125/-375 Pa = -0.25/-0.125/-0.375 kPa; temperatures in degF: 750/18 °C = 1382/64.4 °F)
 ("gc-01", "gas_cabinet", {"silane_concentration": 2.5}),
 ("gc-02", "gas_cabinet", {"silane_concentration": 2.49}),
 ("gc-03", "gas_cabinet", {"silane_concentration": 5}),
 ("gc-04", "gas_cabinet", {"silane_concentration": 5.1}),
 ("gc-05", "gas_cabinet", {"silane_concentration": 12}),               # history "lowered from 10 ppm to 5 ppm"
 ("gc-06", "gas_cabinet", {"silane_concentration": 150}),              # out of range
 ("gc-07", "gas_cabinet", {"silane_concentration": "nan", "arsine_concentration": 2}),
 ("gc-08", "gas_cabinet", {"arsine_concentration": 5}),                # "the TLV-TWA of arsine is 5 ppb": one rule
 ("gc-09", "gas_cabinet", {"arsine_concentration": 4.9}),
 ("gc-10", "gas_cabinet", {"arsine_concentration": 10}),
 ("gc-11", "gas_cabinet", {"arsine_concentration": 10.1}),
 ("gc-12", "gas_cabinet", {"arsine_concentration": 50}),               # calibration gas value adds nothing
 ("gc-13", "gas_cabinet", {"arsine_concentration": 3000}),             # out of range (IDLH 3 ppm in ppb)
 ("gc-14", "gas_cabinet", {"phosphine_concentration": 0.3}),
 ("gc-15", "gas_cabinet", {"phosphine_concentration": 0.31}),
 ("gc-16", "gas_cabinet", {"exhaust_static_pressure": -0.25}),
 ("gc-17", "gas_cabinet", {"exhaust_static_pressure": -0.26}),
 ("gc-18", "gas_cabinet", {"exhaust_static_pressure": -0.375}),        # design value: descriptive
 ("gc-19", "gas_cabinet", {"exhaust_static_pressure": -0.1}),          # duration rule: never in query
 ("gc-20", "gas_cabinet", {"exhaust_static_pressure": -250}),          # a Pa-sized reading: out of the kPa range
 ("gc-21", "gas_cabinet", {"silane_concentration": 1, "exhaust_static_pressure": -0.12}),
 ("gc-22", "gas_cabinet", {"silane_concentration": 1, "exhaust_static_pressure": -0.125}),
 ("gc-23", "gas_cabinet", {"silane_concentration": 0.9, "exhaust_static_pressure": -0.1}),
 ("gc-24", "gas_cabinet", {"silane_concentration": 3}),                # exhaust absent
 ("gc-25", "gas_cabinet", {"cylinder_pressure": 1034.21}),
 ("gc-26", "gas_cabinet", {"cylinder_pressure": 1034.22}),
 ("gc-27", "gas_cabinet", {"cylinder_pressure": 11031.61}),
 ("gc-28", "gas_cabinet", {"cylinder_pressure": 11031.62}),
 ("gc-29", "gas_cabinet", {"cylinder_pressure": 8963}),                # full cylinder, 1,300 psig: descriptive
 ("gc-30", "gas_cabinet", {"cylinder_pressure": 150}),                 # a psig-sized reading: 150 kPa is low
 ("gc-31", "gas_cabinet", {"delivery_pressure": 4.13}),
 ("gc-32", "gas_cabinet", {"delivery_pressure": 4.14}),
 ("gc-33", "gas_cabinet", {"delivery_pressure": 2.41}),                # factory setting 35 psig
 ("gc-34", "gas_cabinet", {"delivery_pressure": 60}),                  # a psig-sized reading: out of the bar range
 ("gc-35", "gas_cabinet", {"purge_nitrogen_pressure": 551.58}),
 ("gc-36", "gas_cabinet", {"purge_nitrogen_pressure": 551.59}),
 ("gc-37", "gas_cabinet", {"purge_nitrogen_pressure": 689.48}),        # procedure's 100 psig
 ("gc-38", "gas_cabinet", {"sds_cylinder_pressure": -96.52}),
 ("gc-39", "gas_cabinet", {"sds_cylinder_pressure": -96.53}),
 ("gc-40", "gas_cabinet", {"sds_cylinder_pressure": -3.45}),
 ("gc-41", "gas_cabinet", {"sds_cylinder_pressure": -3.44}),
 ("gc-42", "gas_cabinet", {"sds_cylinder_pressure": 5}),
 ("gc-43", "gas_cabinet", {"sds_cylinder_pressure": -14}),             # a psig-sized reading: inside the kPa range
 ("gc-44", "gas_cabinet", {"combustion_chamber_temperature": 1382}),
 ("gc-45", "gas_cabinet", {"combustion_chamber_temperature": 1381.9}),
 ("gc-46", "gas_cabinet", {"combustion_chamber_temperature": 750}),    # a °C-sized reading: 750 °F is too cold
 ("gc-47", "gas_cabinet", {"cylinder_temperature": 126}),
 ("gc-48", "gas_cabinet", {"cylinder_temperature": 125}),             # 52 °C = 125.6 °F; "(125 °F)" strict too
 ("gc-49", "gas_cabinet", {"cylinder_temperature": 140}),             # heater surface "about 60 °C" is no limit
 ("gc-50", "gas_cabinet", {"cylinder_temperature": 64.3, "delivery_pressure": 1.72}),
 ("gc-51", "gas_cabinet", {"cylinder_temperature": 64.3, "delivery_pressure": 1.73}),
 ("gc-52", "gas_cabinet", {"cylinder_temperature": 64.4, "delivery_pressure": 1.0}),
 ("gc-53", "gas_cabinet", {"cylinder_temperature": 60}),               # unless-parameter absent
 ("gc-54", "gas_cabinet", {"cylinder_temperature": 60, "delivery_pressure": "nan"}),
 ("gc-55", "gas_cabinet", {"cylinder_temperature": 18, "delivery_pressure": 1.0}),   # a °C-sized reading: 18 °F
 ("gc-56", "gas_cabinet", {"mass_flow": 120}),
 ("gc-57", "gas_cabinet", {"mass_flow": 120.5}),
 ("gc-58", "gas_cabinet", {"silane_concentration": 0.1, "arsine_concentration": 1, "phosphine_concentration": 0.02,
                           "exhaust_static_pressure": -0.375, "cylinder_pressure": 8963, "sds_cylinder_pressure": -20,
                           "delivery_pressure": 2.41, "purge_nitrogen_pressure": 700,
                           "combustion_chamber_temperature": 1600, "cylinder_temperature": 77,
                           "mass_flow": 60}),                            # everything normal
 # well_control (volumes in m³: bbl in brackets tested only where both agree; standpipe / casing in bar:
 #   1,850/5,000/2,000 psi = 127.5530/344.7379/137.8951 bar; accumulator in MPa: 1,200/3,000/1,000 psi =
 #   8.27371/20.6843/6.89476 MPa; bit depth in m: 3,000 ft = 914.4 m; temperatures in degC: 150/90 °F = 65.556/32.222 °C)
 ("wc-01", "well_control", {"pit_gain": 0.8}),
 ("wc-02", "well_control", {"pit_gain": 0.79}),
 ("wc-03", "well_control", {"pit_gain": 1.6}),
 ("wc-04", "well_control", {"pit_gain": 1.58}),
 ("wc-05", "well_control", {"pit_gain": 10}),                          # a bbl-sized reading: 10 m³ is a big kick
 ("wc-06", "well_control", {"pit_gain": -4}),
 ("wc-07", "well_control", {"pit_gain": -4.1}),
 ("wc-08", "well_control", {"pit_gain": 60}),                          # out of range
 ("wc-09", "well_control", {"pit_gain": "nan", "flow_out": 100}),
 ("wc-10", "well_control", {"flow_out": 110}),
 ("wc-11", "well_control", {"flow_out": 110.5}),
 ("wc-12", "well_control", {"flow_out": 98}),                          # "Normal flow-out … 95 to 100 %"
 ("wc-13", "well_control", {"flow_out": 105.5, "bit_depth": 914.4}),
 ("wc-14", "well_control", {"flow_out": 105.5, "bit_depth": 914.3}),
 ("wc-15", "well_control", {"flow_out": 105, "bit_depth": 500}),
 ("wc-16", "well_control", {"flow_out": 111, "bit_depth": 500}),
 ("wc-17", "well_control", {"flow_out": 106}),                         # bit depth absent
 ("wc-18", "well_control", {"flow_out": 106, "bit_depth": 3000}),      # an ft-sized reading: 3,000 m is deep
 ("wc-19", "well_control", {"trip_tank_discrepancy": 0.3}),
 ("wc-20", "well_control", {"trip_tank_discrepancy": 0.35}),
 ("wc-21", "well_control", {"trip_tank_discrepancy": 2}),              # a bbl-sized reading: 2 m³ is too much
 ("wc-22", "well_control", {"kick_tolerance": 4.0}),
 ("wc-23", "well_control", {"kick_tolerance": 3.9}),
 ("wc-24", "well_control", {"kick_tolerance": 25}),                    # a bbl-sized reading: 25 m³ is ample
 ("wc-25", "well_control", {"casing_pressure": 127.55}),
 ("wc-26", "well_control", {"casing_pressure": 127.56}),
 ("wc-27", "well_control", {"casing_pressure": 1850}),                 # a psi-sized reading: out of the bar range
 ("wc-28", "well_control", {"standpipe_pressure": 344.73}),
 ("wc-29", "well_control", {"standpipe_pressure": 344.74}),
 ("wc-30", "well_control", {"standpipe_pressure": 137.89}),
 ("wc-31", "well_control", {"standpipe_pressure": 137.9}),
 ("wc-32", "well_control", {"accumulator_pressure": 8.27}),
 ("wc-33", "well_control", {"accumulator_pressure": 8.28}),
 ("wc-34", "well_control", {"accumulator_pressure": 20.68}),           # normal 3,000 psi: descriptive
 ("wc-35", "well_control", {"accumulator_pressure": 6.89}),            # pre-charge 1,000 psi: below the limit
 ("wc-36", "well_control", {"total_gas": 1000}),
 ("wc-37", "well_control", {"total_gas": 1000.5}),
 ("wc-38", "well_control", {"total_gas": 350}),                        # duration rule: never in query
 ("wc-39", "well_control", {"h2s": 10}),
 ("wc-40", "well_control", {"h2s": 9.9}),
 ("wc-41", "well_control", {"h2s": 20}),
 ("wc-42", "well_control", {"h2s": 20.5}),
 ("wc-43", "well_control", {"h2s": 150}),                              # "deadens the sense of smell above 100 ppm"
 ("wc-44", "well_control", {"h2s": "nan", "total_gas": 1200}),
 ("wc-45", "well_control", {"mud_weight": 10.5}),
 ("wc-46", "well_control", {"mud_weight": 10.51}),
 ("wc-47", "well_control", {"mud_weight": 14.2}),                      # FIT "14.2 lb/gal equivalent mud weight"
 ("wc-48", "well_control", {"mud_weight": 11}),                        # procedure "from 10.8 lb/gal to 11.4 lb/gal"
 ("wc-49", "well_control", {"mud_ph": 10}),
 ("wc-50", "well_control", {"mud_ph": 9.9}),
 ("wc-51", "well_control", {"mud_ph": 11.5}),
 ("wc-52", "well_control", {"mud_ph": 11.6}),
 ("wc-53", "well_control", {"mud_ph": 15}),                            # out of range
 ("wc-54", "well_control", {"flowline_temperature": 65.56, "pit_temperature": 40}),
 ("wc-55", "well_control", {"flowline_temperature": 65.55, "pit_temperature": 40}),
 ("wc-56", "well_control", {"flowline_temperature": 70}),              # unless-parameter absent
 ("wc-57", "well_control", {"flowline_temperature": 70, "pit_temperature": "nan"}),
 ("wc-58", "well_control", {"flowline_temperature": 70, "pit_temperature": 32.22}),
 ("wc-59", "well_control", {"flowline_temperature": 70, "pit_temperature": 32.23}),
 ("wc-60", "well_control", {"flowline_temperature": 150, "pit_temperature": 40}),   # a °F-sized reading: 150 °C is hot
 ("wc-61", "well_control", {"pit_gain": 0.2, "flow_out": 98, "bit_depth": 2500, "trip_tank_discrepancy": 0.1,
                            "kick_tolerance": 8, "casing_pressure": 0, "standpipe_pressure": 220,
                            "accumulator_pressure": 20.68, "total_gas": 40, "h2s": 0, "mud_weight": 11.2,
                            "mud_ph": 10.5, "flowline_temperature": 45, "pit_temperature": 35}),   # everything normal
 # data_centre (CRAH supply / CHWS / coolant in degC: 75/60/70 °F = 23.8889/15.5556/21.1111 °C, 59/41/14 °F =
 #   15/5/-10 °C; rack inlet in degF: 27/35/15 °C = 80.6/95/59 °F; battery runtime in s: 8 min = 480 s;
 #   fuel autonomy in min: 24/48 h = 1440/2880 min; utility voltage in kV)
 ("dc-01", "data_centre", {"crah_supply_air_temperature": 23.88}),
 ("dc-02", "data_centre", {"crah_supply_air_temperature": 23.89}),
 ("dc-03", "data_centre", {"crah_supply_air_temperature": 15}),
 ("dc-04", "data_centre", {"crah_supply_air_temperature": 14.9}),
 ("dc-05", "data_centre", {"crah_supply_air_temperature": 17.8}),     # history setpoint 64 °F: descriptive
 ("dc-06", "data_centre", {"crah_supply_air_temperature": 75}),       # a °F-sized reading: out of the degC range
 ("dc-07", "data_centre", {"running_crah_units": 4}),
 ("dc-08", "data_centre", {"running_crah_units": 3}),
 ("dc-09", "data_centre", {"running_crah_units": 2, "crah_supply_air_temperature": "nan"}),
 ("dc-10", "data_centre", {"rack_inlet_temperature": 95}),
 ("dc-11", "data_centre", {"rack_inlet_temperature": 95.1}),
 ("dc-12", "data_centre", {"rack_inlet_temperature": 59}),
 ("dc-13", "data_centre", {"rack_inlet_temperature": 58.9}),
 ("dc-14", "data_centre", {"rack_inlet_temperature": 85}),            # duration rule: never in query
 ("dc-15", "data_centre", {"rack_inlet_temperature": 63}),            # below the ASHRAE recommendation: no rule
 ("dc-16", "data_centre", {"rack_inlet_temperature": 27}),            # a °C-sized reading: out of the degF range
 ("dc-17", "data_centre", {"chws_temperature": 15.56, "outside_air_temperature": 20}),
 ("dc-18", "data_centre", {"chws_temperature": 15.55, "outside_air_temperature": 20}),
 ("dc-19", "data_centre", {"chws_temperature": 16, "outside_air_temperature": 5}),
 ("dc-20", "data_centre", {"chws_temperature": 16, "outside_air_temperature": 4.9}),
 ("dc-21", "data_centre", {"chws_temperature": 16}),                  # except-parameter absent
 ("dc-22", "data_centre", {"chws_temperature": 16, "outside_air_temperature": "nan"}),
 ("dc-23", "data_centre", {"relative_humidity": 19.9, "dew_point": -9.1}),
 ("dc-24", "data_centre", {"relative_humidity": 19.9, "dew_point": -9}),
 ("dc-25", "data_centre", {"relative_humidity": 20, "dew_point": -15}),
 ("dc-26", "data_centre", {"relative_humidity": 15}),                 # but-only-if parameter absent
 ("dc-27", "data_centre", {"ups_load": 45}),
 ("dc-28", "data_centre", {"ups_load": 45.1}),
 ("dc-29", "data_centre", {"ups_battery_temperature": 35}),
 ("dc-30", "data_centre", {"ups_battery_temperature": 34.9}),
 ("dc-31", "data_centre", {"ups_battery_temperature": 33}),           # "Every 8 °C above 25 °C halves …"
 ("dc-32", "data_centre", {"battery_runtime": 480}),
 ("dc-33", "data_centre", {"battery_runtime": 479}),
 ("dc-34", "data_centre", {"battery_runtime": 600}),                  # "a battery runtime of 10 minutes": descriptive
 ("dc-35", "data_centre", {"battery_runtime": 8}),                    # a min-sized reading: 8 s is very low
 ("dc-36", "data_centre", {"utility_voltage": 10.45}),
 ("dc-37", "data_centre", {"utility_voltage": 10.44}),
 ("dc-38", "data_centre", {"utility_voltage": 11.55}),
 ("dc-39", "data_centre", {"utility_voltage": 11.56}),
 ("dc-40", "data_centre", {"utility_voltage": 11000}),                # a V-sized reading: out of the kV range
 ("dc-41", "data_centre", {"pdu_phase_current": 25.6}),
 ("dc-42", "data_centre", {"pdu_phase_current": 25.7}),
 ("dc-43", "data_centre", {"pdu_phase_current": 32}),
 ("dc-44", "data_centre", {"fuel_autonomy": 2880}),
 ("dc-45", "data_centre", {"fuel_autonomy": 2879}),
 ("dc-46", "data_centre", {"fuel_autonomy": 1440}),
 ("dc-47", "data_centre", {"fuel_autonomy": 1439}),
 ("dc-48", "data_centre", {"fuel_autonomy": 24}),                     # an h-sized reading: 24 min
 ("dc-49", "data_centre", {"generator_coolant_temperature": 21.1, "outside_air_temperature": -10.5}),
 ("dc-50", "data_centre", {"generator_coolant_temperature": 21.12, "outside_air_temperature": -11}),
 ("dc-51", "data_centre", {"generator_coolant_temperature": 20, "outside_air_temperature": -10}),
 ("dc-52", "data_centre", {"generator_coolant_temperature": 20}),
 ("dc-53", "data_centre", {"generator_coolant_temperature": 85, "outside_air_temperature": -20}),   # normal 180–195 °F
 ("dc-54", "data_centre", {"generator_coolant_temperature": 15, "outside_air_temperature": -12,
                           "chws_temperature": 16}),                 # cold: block heater, no standby chiller
 ("dc-55", "data_centre", {"crah_supply_air_temperature": 20, "running_crah_units": 6, "rack_inlet_temperature": 72,
                           "chws_temperature": 12, "outside_air_temperature": 15, "relative_humidity": 45,
                           "dew_point": 8, "ups_load": 38, "ups_battery_temperature": 22, "battery_runtime": 600,
                           "utility_voltage": 11.0, "pdu_phase_current": 12, "fuel_autonomy": 4320,
                           "generator_coolant_temperature": 38}),   # everything normal
 # anaesthesia_workstation (EtCO2 in kPa: 50/8/60 mmHg = 6.666118/1.066579/7.999342 kPa; O2 pipeline in kPa:
 #   35 psi = 241.3165 kPa; core temperature in degF: 36.0/38.5 °C = 96.8/101.3 °F; battery time in s: 10 min = 600 s)
 ("an-01", "anaesthesia_workstation", {"etco2": 6.666}),
 ("an-02", "anaesthesia_workstation", {"etco2": 6.667}),
 ("an-03", "anaesthesia_workstation", {"etco2": 55}),                 # an mmHg-sized reading: out of the kPa range
 ("an-04", "anaesthesia_workstation", {"etco2": 5.3}),                # normally 35 to 45 mmHg: descriptive
 ("an-05", "anaesthesia_workstation", {"etco2": 0.5}),                # duration rule: never in query
 ("an-06", "anaesthesia_workstation", {"spo2": 90}),
 ("an-07", "anaesthesia_workstation", {"spo2": 89.9}),
 ("an-08", "anaesthesia_workstation", {"spo2": "nan", "fio2": 24}),
 ("an-09", "anaesthesia_workstation", {"fio2": 25}),
 ("an-10", "anaesthesia_workstation", {"fio2": 100, "spo2": 95}),     # pre-use step "FiO2 to 100 %"
 ("an-11", "anaesthesia_workstation", {"mac": 1.5}),
 ("an-12", "anaesthesia_workstation", {"mac": 1.51}),
 ("an-13", "anaesthesia_workstation", {"mac": 0.7}),
 ("an-14", "anaesthesia_workstation", {"mac": 0.71}),
 ("an-15", "anaesthesia_workstation", {"paw_peak": 40}),
 ("an-16", "anaesthesia_workstation", {"paw_peak": 40.1}),
 ("an-17", "anaesthesia_workstation", {"paw_peak": 35}),              # pre-use step "rises to 30 cmH2O"
 ("an-18", "anaesthesia_workstation", {"o2_pipeline_pressure": 241.3}),
 ("an-19", "anaesthesia_workstation", {"o2_pipeline_pressure": 241.32}),
 ("an-20", "anaesthesia_workstation", {"o2_pipeline_pressure": 345}), # nominally 50 psi (345 kPa)
 ("an-21", "anaesthesia_workstation", {"heart_rate": 140}),
 ("an-22", "anaesthesia_workstation", {"heart_rate": 139.9}),
 ("an-23", "anaesthesia_workstation", {"heart_rate": 44.9, "systolic_pressure": 89.9}),
 ("an-24", "anaesthesia_workstation", {"heart_rate": 45, "systolic_pressure": 80}),
 ("an-25", "anaesthesia_workstation", {"heart_rate": 40, "systolic_pressure": 90}),
 ("an-26", "anaesthesia_workstation", {"heart_rate": 40}),            # while-parameter absent
 ("an-27", "anaesthesia_workstation", {"core_temperature": 96.8}),
 ("an-28", "anaesthesia_workstation", {"core_temperature": 96.9}),
 ("an-29", "anaesthesia_workstation", {"core_temperature": 101.3, "etco2": 8.0}),
 ("an-30", "anaesthesia_workstation", {"core_temperature": 101.4, "etco2": 8.0}),
 ("an-31", "anaesthesia_workstation", {"core_temperature": 101.4, "etco2": 7.9993}),
 ("an-32", "anaesthesia_workstation", {"core_temperature": 101.4}),
 ("an-33", "anaesthesia_workstation", {"core_temperature": 36.5}),    # a °C-sized reading: out of the degF range
 ("an-34", "anaesthesia_workstation", {"battery_time": 600}),
 ("an-35", "anaesthesia_workstation", {"battery_time": 601}),
 ("an-36", "anaesthesia_workstation", {"battery_time": 6000}),        # "at least 90 minutes of operation": descriptive
 ("an-37", "anaesthesia_workstation", {"tof_ratio": 0.9}),
 ("an-38", "anaesthesia_workstation", {"tof_ratio": 0.89}),
 ("an-39", "anaesthesia_workstation", {"etco2": 5.0, "spo2": 98, "fio2": 50, "mac": 1.0, "paw_peak": 18,
                                       "o2_pipeline_pressure": 345, "heart_rate": 72, "systolic_pressure": 120,
                                       "core_temperature": 97.5, "battery_time": 5400, "tof_ratio": 1.0}),   # all normal
 # tunnel_ventilation (tunnel air temperature in degF: 32/40/35 °C = 89.6/104/95 °F; air velocity in km/h:
 #   2.5 m/s = 9 km/h; line voltage in kV; feeder current in A: 6 kA = 6000 A; winding temperature in K:
 #   150 °C = 423.15 K; insulation resistance in MOhm: 100 kΩ = 0.1 MOhm)
 ("tv-01", "tunnel_ventilation", {"tunnel_air_temperature": 89.6}),
 ("tv-02", "tunnel_ventilation", {"tunnel_air_temperature": 89.7}),
 ("tv-03", "tunnel_ventilation", {"tunnel_air_temperature": 104}),
 ("tv-04", "tunnel_ventilation", {"tunnel_air_temperature": 103.9}),
 ("tv-05", "tunnel_ventilation", {"tunnel_air_temperature": 86}),     # typically 28 °C: descriptive
 ("tv-06", "tunnel_ventilation", {"tunnel_air_temperature": 93.2}),   # procedure "dropped below 35 °C"
 ("tv-07", "tunnel_ventilation", {"tunnel_air_temperature": 95.1, "outside_air_temperature": 24.9}),
 ("tv-08", "tunnel_ventilation", {"tunnel_air_temperature": 95, "outside_air_temperature": 20}),
 ("tv-09", "tunnel_ventilation", {"tunnel_air_temperature": 96, "outside_air_temperature": 25}),
 ("tv-10", "tunnel_ventilation", {"tunnel_air_temperature": 96}),     # both-and: outside air absent
 ("tv-11", "tunnel_ventilation", {"tunnel_air_temperature": 96, "outside_air_temperature": "nan"}),
 ("tv-12", "tunnel_ventilation", {"co_concentration": 35}),
 ("tv-13", "tunnel_ventilation", {"co_concentration": 34.9}),
 ("tv-14", "tunnel_ventilation", {"co_concentration": 100}),
 ("tv-15", "tunnel_ventilation", {"co_concentration": 100.1}),
 ("tv-16", "tunnel_ventilation", {"tunnel_air_velocity": 9}),
 ("tv-17", "tunnel_ventilation", {"tunnel_air_velocity": 8.9}),
 ("tv-18", "tunnel_ventilation", {"tunnel_air_velocity": 3.6}),       # procedure "at least 1.0 m/s"
 ("tv-19", "tunnel_ventilation", {"fan_vibration": 7.1}),
 ("tv-20", "tunnel_ventilation", {"fan_vibration": 7.2}),
 ("tv-21", "tunnel_ventilation", {"line_voltage": 0.5}),
 ("tv-22", "tunnel_ventilation", {"line_voltage": 0.499}),
 ("tv-23", "tunnel_ventilation", {"line_voltage": 0.9}),
 ("tv-24", "tunnel_ventilation", {"line_voltage": 0.901}),
 ("tv-25", "tunnel_ventilation", {"line_voltage": 0.6}),              # history "raised from 600 V to 750 V"
 ("tv-26", "tunnel_ventilation", {"line_voltage": 750}),              # a V-sized reading: out of the kV range
 ("tv-27", "tunnel_ventilation", {"feeder_current": 6000}),
 ("tv-28", "tunnel_ventilation", {"feeder_current": 6001}),
 ("tv-29", "tunnel_ventilation", {"feeder_current": 4000}),           # typically 3 to 4 kA: descriptive
 ("tv-30", "tunnel_ventilation", {"feeder_current": 6}),              # a kA-sized reading: 6 A
 ("tv-31", "tunnel_ventilation", {"transformer_winding_temperature": 423.15}),
 ("tv-32", "tunnel_ventilation", {"transformer_winding_temperature": 423.2}),
 ("tv-33", "tunnel_ventilation", {"transformer_winding_temperature": 160}),   # a °C-sized reading: out of the K range
 ("tv-34", "tunnel_ventilation", {"insulation_resistance": 0.1}),
 ("tv-35", "tunnel_ventilation", {"insulation_resistance": 0.099}),
 ("tv-36", "tunnel_ventilation", {"rail_potential": 150}),            # duration rule: never in query
 ("tv-37", "tunnel_ventilation", {"tunnel_air_temperature": 80, "outside_air_temperature": 18, "co_concentration": 5,
                                  "tunnel_air_velocity": 12, "fan_vibration": 2.0, "line_voltage": 0.75,
                                  "feeder_current": 2500, "transformer_winding_temperature": 350,
                                  "insulation_resistance": 2.0, "rail_potential": 40}),
 # (tv-37: everything normal)
 # bioreactor (culture temperature in degF: 36.5/37.5/37.0/38.4 °C = 97.7/99.5/98.6/101.12 °F; SIP temperature
 #   in K: 121.0 °C = 394.15 K; headspace pressure in mbar: 0.8 bar = 800 mbar; pCO2 in kPa: 150 mmHg = 19.998355 kPa)
 ("br-01", "bioreactor", {"culture_temperature": 97.7}),
 ("br-02", "bioreactor", {"culture_temperature": 97.6}),
 ("br-03", "bioreactor", {"culture_temperature": 99.5}),
 ("br-04", "bioreactor", {"culture_temperature": 99.6}),
 ("br-05", "bioreactor", {"culture_temperature": 98.6}),               # setpoint 37.0 °C
 ("br-06", "bioreactor", {"culture_temperature": 101.12}),             # history 38.4 °C; duration rule not in query
 ("br-07", "bioreactor", {"culture_temperature": 37}),                 # a °C-sized reading: out of the degF range
 ("br-08", "bioreactor", {"ph": 6.8}),
 ("br-09", "bioreactor", {"ph": 6.79}),
 ("br-10", "bioreactor", {"ph": 7.2}),
 ("br-11", "bioreactor", {"ph": 7.21}),
 ("br-12", "bioreactor", {"ph": 6.75}),                                # history "pH dropped to 6.75": one rule
 ("br-13", "bioreactor", {"dissolved_oxygen": 20}),
 ("br-14", "bioreactor", {"dissolved_oxygen": 20.1}),
 ("br-15", "bioreactor", {"dissolved_oxygen": "nan"}),
 ("br-16", "bioreactor", {"headspace_pressure": 800}),
 ("br-17", "bioreactor", {"headspace_pressure": 801}),
 ("br-18", "bioreactor", {"headspace_pressure": 200}),                 # procedure "headspace pressure to 0.2 bar"
 ("br-19", "bioreactor", {"agitator_speed": 150}),
 ("br-20", "bioreactor", {"agitator_speed": 151}),
 ("br-21", "bioreactor", {"agitator_speed": 90}),                      # procedure "agitation to 90 rpm"
 ("br-22", "bioreactor", {"pco2": 19.99}),
 ("br-23", "bioreactor", {"pco2": 20.0}),
 ("br-24", "bioreactor", {"pco2": 150}),                               # an mmHg-sized reading: out of the kPa range
 ("br-25", "bioreactor", {"glucose": 2.0}),
 ("br-26", "bioreactor", {"glucose": 1.99}),
 ("br-27", "bioreactor", {"glucose": 5.5}),                            # typically 5 to 6 g/L: descriptive
 ("br-28", "bioreactor", {"lactate": 2.6, "glucose": 4.1}),
 ("br-29", "bioreactor", {"lactate": 2.5, "glucose": 5}),
 ("br-30", "bioreactor", {"lactate": 3, "glucose": 4}),
 ("br-31", "bioreactor", {"lactate": 3}),                              # but-parameter absent
 ("br-32", "bioreactor", {"lactate": 3, "glucose": 1.5}),
 ("br-33", "bioreactor", {"viability": 80}),
 ("br-34", "bioreactor", {"viability": 79.9}),
 ("br-35", "bioreactor", {"viability": 86, "glucose": 3.1, "lactate": 1.9}),   # history line of day 9
 ("br-36", "bioreactor", {"sip_temperature": 394.15}),
 ("br-37", "bioreactor", {"sip_temperature": 394.1}),
 ("br-38", "bioreactor", {"sip_temperature": 121}),                    # a °C-sized reading: out of the K range
 ("br-39", "bioreactor", {"culture_temperature": 98.6, "ph": 7.0, "dissolved_oxygen": 40, "headspace_pressure": 200,
                          "agitator_speed": 90, "pco2": 8, "glucose": 4.5, "lactate": 1.2, "viability": 95,
                          "sip_temperature": 298}),                    # everything normal
 # rocket_test_stand (chamber pressure in MPa: 1,150/200 psi = 7.928971/1.378951 MPa; LOX tank and purge pressures
 #   in bar: 45/120/400 psi = 3.102641/8.273709/27.579029 bar; fuel tank pressure in kPa: 95/50/80/55 psi =
 #   655.001943/344.737865/551.580583/379.211651 kPa; bearing temperature in degC: 250 °F = 121.111 °C; injector
 #   temperatures in K: 95/-150 °C = 368.15/123.15 K; LOX tank temperature in degC: 95 K = -178.15 °C)
 ("ts-01", "rocket_test_stand", {"chamber_pressure": 7.928}),
 ("ts-02", "rocket_test_stand", {"chamber_pressure": 7.93}),
 ("ts-03", "rocket_test_stand", {"chamber_pressure": 6.9}),                 # nominal 1,000 psi: descriptive
 ("ts-04", "rocket_test_stand", {"chamber_pressure": 6.3}),                 # T+2 s "above 900 psi": procedure
 ("ts-05", "rocket_test_stand", {"chamber_pressure": 0.1}),                 # T-10 s "less than 15 psi": procedure
 ("ts-06", "rocket_test_stand", {"chamber_pressure": 1150}),                # a psi-sized reading: out of the MPa range
 ("ts-07", "rocket_test_stand", {"turbopump_speed": 36500}),
 ("ts-08", "rocket_test_stand", {"turbopump_speed": 36501}),
 ("ts-09", "rocket_test_stand", {"turbopump_speed": 37999}),
 ("ts-10", "rocket_test_stand", {"turbopump_speed": 38000}),
 ("ts-11", "rocket_test_stand", {"turbopump_speed": 35200}),                # history "reached 35,200 rpm"
 ("ts-12", "rocket_test_stand", {"turbopump_speed": 30500}),                # T-0 "rises to about 30,000 rpm"
 ("ts-13", "rocket_test_stand", {"lox_tank_pressure": 3.11}),
 ("ts-14", "rocket_test_stand", {"lox_tank_pressure": 3.1}),
 ("ts-15", "rocket_test_stand", {"lox_tank_pressure": 8.27}),
 ("ts-16", "rocket_test_stand", {"lox_tank_pressure": 8.28}),
 ("ts-17", "rocket_test_stand", {"lox_tank_pressure": 5.171, "fuel_tank_pressure": 448.16}),   # T-120 s 75 / 65 psi
 ("ts-18", "rocket_test_stand", {"turbopump_bearing_temperature": 121.11}),
 ("ts-19", "rocket_test_stand", {"turbopump_bearing_temperature": 121.12}),
 ("ts-20", "rocket_test_stand", {"turbopump_bearing_temperature": 82.2}),   # "typically peaks at 180 °F"
 ("ts-21", "rocket_test_stand", {"turbopump_bearing_temperature": 250}),    # a °F-sized reading: 250 °C is hot
 ("ts-22", "rocket_test_stand", {"turbopump_vibration": 20, "turbopump_speed": 31000}),
 ("ts-23", "rocket_test_stand", {"turbopump_vibration": 20.5, "turbopump_speed": 31000}),
 ("ts-24", "rocket_test_stand", {"turbopump_vibration": 25, "turbopump_speed": 30000}),
 ("ts-25", "rocket_test_stand", {"turbopump_vibration": 25}),               # while-parameter absent; duration rule not in query
 ("ts-26", "rocket_test_stand", {"turbopump_vibration": 25, "turbopump_speed": "nan"}),
 ("ts-27", "rocket_test_stand", {"fuel_injector_temperature": 368.15, "chamber_pressure": 6.9}),
 ("ts-28", "rocket_test_stand", {"fuel_injector_temperature": 368.2, "chamber_pressure": 6.9}),
 ("ts-29", "rocket_test_stand", {"fuel_injector_temperature": 368.2, "chamber_pressure": 1.37}),
 ("ts-30", "rocket_test_stand", {"fuel_injector_temperature": 368.2, "chamber_pressure": 1.38}),
 ("ts-31", "rocket_test_stand", {"fuel_injector_temperature": 400}),        # unless-parameter absent
 ("ts-32", "rocket_test_stand", {"fuel_injector_temperature": 400, "chamber_pressure": "nan"}),
 ("ts-33", "rocket_test_stand", {"fuel_injector_temperature": 95, "chamber_pressure": 6.9}),    # a °C-sized reading: out of the K range
 ("ts-34", "rocket_test_stand", {"fuel_tank_pressure": 655}),
 ("ts-35", "rocket_test_stand", {"fuel_tank_pressure": 655.01}),
 ("ts-36", "rocket_test_stand", {"fuel_tank_pressure": 344.74}),
 ("ts-37", "rocket_test_stand", {"fuel_tank_pressure": 344.73}),
 ("ts-38", "rocket_test_stand", {"fuel_tank_pressure": 551.58}),
 ("ts-39", "rocket_test_stand", {"fuel_tank_pressure": 551.59}),
 ("ts-40", "rocket_test_stand", {"fuel_tank_pressure": 65}),                # a psi-sized reading: 65 kPa is low
 ("ts-41", "rocket_test_stand", {"turbopump_speed": 34000, "fuel_tank_pressure": 379.2}),
 ("ts-42", "rocket_test_stand", {"turbopump_speed": 36500, "fuel_tank_pressure": 379.22}),
 ("ts-43", "rocket_test_stand", {"turbopump_speed": 33999, "fuel_tank_pressure": 350}),
 ("ts-44", "rocket_test_stand", {"turbopump_speed": 36501, "fuel_tank_pressure": 350}),
 ("ts-45", "rocket_test_stand", {"turbopump_speed": 36500, "fuel_tank_pressure": 344.7}),
 ("ts-46", "rocket_test_stand", {"mixture_ratio": 2.2}),
 ("ts-47", "rocket_test_stand", {"mixture_ratio": 2.19}),
 ("ts-48", "rocket_test_stand", {"mixture_ratio": 2.8}),
 ("ts-49", "rocket_test_stand", {"mixture_ratio": 2.81}),
 ("ts-50", "rocket_test_stand", {"mixture_ratio": 2.5}),                    # nominal: descriptive
 ("ts-51", "rocket_test_stand", {"purge_pressure": 27.58}),
 ("ts-52", "rocket_test_stand", {"purge_pressure": 27.57}),
 ("ts-53", "rocket_test_stand", {"purge_pressure": 31.03}),                 # T-60 s "purge at 450 psi"
 ("ts-54", "rocket_test_stand", {"lox_injector_temperature": 123.15}),
 ("ts-55", "rocket_test_stand", {"lox_injector_temperature": 123.2}),
 ("ts-56", "rocket_test_stand", {"lox_injector_temperature": 110}),         # T-30 s "reads below -160 °C"
 ("ts-57", "rocket_test_stand", {"lox_injector_temperature": -150}),        # a °C-sized reading: out of the K range
 ("ts-58", "rocket_test_stand", {"lox_tank_temperature": -178.15}),
 ("ts-59", "rocket_test_stand", {"lox_tank_temperature": -178.1}),
 ("ts-60", "rocket_test_stand", {"lox_tank_temperature": 95}),              # a K-sized reading: out of the degC range
 ("ts-61", "rocket_test_stand", {"chamber_pressure": 6.9, "turbopump_speed": 35200, "turbopump_vibration": 4,
                                 "turbopump_bearing_temperature": 60, "lox_tank_pressure": 5.2, "fuel_tank_pressure": 450,
                                 "lox_tank_temperature": -185, "lox_injector_temperature": 110,
                                 "fuel_injector_temperature": 320, "mixture_ratio": 2.5, "purge_pressure": 31}),   # all normal
 # neonatal_incubator (air and ambient temperatures in degF: 38.0/30.0/32/34.0/-10/+40 °C = 100.4/86/89.6/93.2/14/104 °F;
 #   mattress temperature in K: 40 °C = 313.15 K; battery time in s: 20 min = 1200 s)
 ("ni-01", "neonatal_incubator", {"air_temperature": 100.4}),
 ("ni-02", "neonatal_incubator", {"air_temperature": 100.5}),
 ("ni-03", "neonatal_incubator", {"air_temperature": 100.76}),              # 38.2 °C: inside the history "from 38.5 °C to 38.0 °C"
 ("ni-04", "neonatal_incubator", {"air_temperature": 101.3}),               # history limit 38.5 °C
 ("ni-05", "neonatal_incubator", {"air_temperature": 38.5}),                # a °C-sized reading: out of the degF range
 ("ni-06", "neonatal_incubator", {"air_temperature": 98.6}),                # settable "from 20 °C to 37 °C"
 ("ni-07", "neonatal_incubator", {"air_temperature": 68}),                  # 20 °C; duration rule not in query
 ("ni-08", "neonatal_incubator", {"air_temperature": 93.2, "relative_humidity": 60}),   # troubleshooting step 2
 ("ni-09", "neonatal_incubator", {"skin_temperature": 37.8}),
 ("ni-10", "neonatal_incubator", {"skin_temperature": 37.79}),
 ("ni-11", "neonatal_incubator", {"skin_temperature": 36.0}),
 ("ni-12", "neonatal_incubator", {"skin_temperature": 35.9}),
 ("ni-13", "neonatal_incubator", {"skin_temperature": 37.0}),               # normal 36.5–37.5 °C: descriptive
 ("ni-14", "neonatal_incubator", {"skin_temperature": 37.6}),               # unless-parameter absent
 ("ni-15", "neonatal_incubator", {"skin_temperature": 37.6, "air_temperature": 93.2}),
 ("ni-16", "neonatal_incubator", {"skin_temperature": 37.6, "air_temperature": 93.3}),
 ("ni-17", "neonatal_incubator", {"skin_temperature": 37.5, "air_temperature": 95}),
 ("ni-18", "neonatal_incubator", {"skin_temperature": 37.9, "air_temperature": 95}),
 ("ni-19", "neonatal_incubator", {"skin_temperature": 37.6, "air_temperature": "nan"}),
 ("ni-20", "neonatal_incubator", {"mattress_temperature": 313.15}),
 ("ni-21", "neonatal_incubator", {"mattress_temperature": 313.2}),
 ("ni-22", "neonatal_incubator", {"mattress_temperature": 40}),             # a °C-sized reading: out of the K range
 ("ni-23", "neonatal_incubator", {"relative_humidity": 40}),
 ("ni-24", "neonatal_incubator", {"relative_humidity": 39.9}),
 ("ni-25", "neonatal_incubator", {"relative_humidity": 85}),
 ("ni-26", "neonatal_incubator", {"relative_humidity": 85.1}),
 ("ni-27", "neonatal_incubator", {"relative_humidity": 80}),                # "24 hours at 80 % relative humidity"
 ("ni-28", "neonatal_incubator", {"relative_humidity": 80.1, "air_temperature": 89.5}),
 ("ni-29", "neonatal_incubator", {"relative_humidity": 80, "air_temperature": 89.5}),
 ("ni-30", "neonatal_incubator", {"relative_humidity": 81, "air_temperature": 89.6}),
 ("ni-31", "neonatal_incubator", {"relative_humidity": 81}),                # while-parameter absent
 ("ni-32", "neonatal_incubator", {"body_weight": 999, "relative_humidity": 69.9}),
 ("ni-33", "neonatal_incubator", {"body_weight": 1000, "relative_humidity": 60}),
 ("ni-34", "neonatal_incubator", {"body_weight": 999, "relative_humidity": 70}),
 ("ni-35", "neonatal_incubator", {"body_weight": 800}),
 ("ni-36", "neonatal_incubator", {"body_weight": 5000}),                    # "body weight of up to 5 kg": descriptive
 ("ni-37", "neonatal_incubator", {"body_weight": 999, "relative_humidity": 39}),
 ("ni-38", "neonatal_incubator", {"o2_concentration": 40, "spo2": 95}),
 ("ni-39", "neonatal_incubator", {"o2_concentration": 41, "spo2": 95}),
 ("ni-40", "neonatal_incubator", {"o2_concentration": 41, "spo2": 89}),
 ("ni-41", "neonatal_incubator", {"o2_concentration": 41, "spo2": 90}),
 ("ni-42", "neonatal_incubator", {"o2_concentration": 100}),                # except-parameter absent
 ("ni-43", "neonatal_incubator", {"o2_concentration": 41, "spo2": "nan"}),
 ("ni-44", "neonatal_incubator", {"o2_concentration": 18}),
 ("ni-45", "neonatal_incubator", {"o2_concentration": 17.9}),
 ("ni-46", "neonatal_incubator", {"o2_concentration": 21}),                 # calibration point in the action
 ("ni-47", "neonatal_incubator", {"spo2": 87, "o2_concentration": 40}),
 ("ni-48", "neonatal_incubator", {"spo2": 87, "o2_concentration": 40.1}),
 ("ni-49", "neonatal_incubator", {"spo2": 88, "o2_concentration": 30}),
 ("ni-50", "neonatal_incubator", {"spo2": 87}),
 ("ni-51", "neonatal_incubator", {"pulse_rate": 80}),
 ("ni-52", "neonatal_incubator", {"pulse_rate": 79}),
 ("ni-53", "neonatal_incubator", {"pulse_rate": 200}),
 ("ni-54", "neonatal_incubator", {"pulse_rate": 201}),
 ("ni-55", "neonatal_incubator", {"battery_time": 1200}),
 ("ni-56", "neonatal_incubator", {"battery_time": 1199}),
 ("ni-57", "neonatal_incubator", {"battery_time": 5400, "ambient_temperature": 68}),   # "about 90 min at ... 20 °C"
 ("ni-58", "neonatal_incubator", {"battery_time": 20}),                     # a min-sized reading: 20 s is low
 ("ni-59", "neonatal_incubator", {"ambient_temperature": 14}),
 ("ni-60", "neonatal_incubator", {"ambient_temperature": 13.9}),
 ("ni-61", "neonatal_incubator", {"ambient_temperature": 104}),
 ("ni-62", "neonatal_incubator", {"ambient_temperature": 104.1}),
 ("ni-63", "neonatal_incubator", {"ambient_temperature": -10}),             # a °C-sized reading: -10 °F is colder
 ("ni-64", "neonatal_incubator", {"air_temperature": 93.2, "skin_temperature": 36.8, "mattress_temperature": 310,
                                  "relative_humidity": 60, "o2_concentration": 30, "spo2": 95, "pulse_rate": 140,
                                  "battery_time": 3000, "ambient_temperature": 72, "body_weight": 2500}),   # all normal
 # electrolyser_plant (stack current in A; cell voltage in V: 2,200 mV = 2.2 V; stack voltage in kV: 400 V = 0.4 kV;
 #   stack temperature and dew point in degF: 80/5/55 °C = 176/41/131 °F, -65/-40/-70 °C = -85/-40/-94 °F; O2 separator
 #   level in m: 350 mm = 0.35 m; O2 separator pressure in kPa: 20/150 mbar = 2/15 kPa; H2 outlet pressure in MPa)
 ("el-01", "electrolyser_plant", {"stack_current": 4500}),
 ("el-02", "electrolyser_plant", {"stack_current": 4501}),
 ("el-03", "electrolyser_plant", {"stack_current": 4000, "h2_outlet_pressure": 3.0}),   # nominal: descriptive
 ("el-04", "electrolyser_plant", {"stack_current": 2000}),                  # start-up ramp "from 500 A to 4,000 A"
 ("el-05", "electrolyser_plant", {"stack_current": 4.6}),                   # a kA-sized reading: 4.6 A
 ("el-06", "electrolyser_plant", {"stack_current": 50}),                    # "stack current to 50 %" in an action
 ("el-07", "electrolyser_plant", {"cell_voltage": 2.2}),
 ("el-08", "electrolyser_plant", {"cell_voltage": 2.201}),
 ("el-09", "electrolyser_plant", {"cell_voltage": 1.9}),                    # typical: descriptive
 ("el-10", "electrolyser_plant", {"cell_voltage": 2200}),                   # an mV-sized reading: out of the V range
 ("el-11", "electrolyser_plant", {"stack_voltage": 0.399, "stack_current": 3001}),
 ("el-12", "electrolyser_plant", {"stack_voltage": 0.4, "stack_current": 3001}),
 ("el-13", "electrolyser_plant", {"stack_voltage": 0.399, "stack_current": 3000}),
 ("el-14", "electrolyser_plant", {"stack_voltage": 0.399}),                 # while-parameter absent
 ("el-15", "electrolyser_plant", {"stack_voltage": 400, "stack_current": 3500}),   # a V-sized reading: out of the kV range
 ("el-16", "electrolyser_plant", {"stack_temperature": 176}),
 ("el-17", "electrolyser_plant", {"stack_temperature": 176.1}),
 ("el-18", "electrolyser_plant", {"stack_temperature": 131, "stack_current": 500}),   # start-up "heat the stack to 55 °C"
 ("el-19", "electrolyser_plant", {"stack_temperature": 80, "stack_current": 4000}),   # a °C-sized reading: 80 °F is cool
 ("el-20", "electrolyser_plant", {"stack_temperature": 40.9, "stack_current": 0}),
 ("el-21", "electrolyser_plant", {"stack_temperature": 41, "stack_current": 0}),
 ("el-22", "electrolyser_plant", {"stack_temperature": 40, "stack_current": 100}),
 ("el-23", "electrolyser_plant", {"stack_temperature": 40, "stack_current": 101}),
 ("el-24", "electrolyser_plant", {"stack_temperature": 40}),                # except-parameter absent
 ("el-25", "electrolyser_plant", {"stack_temperature": 40, "stack_current": "nan"}),
 ("el-26", "electrolyser_plant", {"stack_temperature": 5, "stack_current": 0}),   # a °C-sized reading: 5 °F is cold
 ("el-27", "electrolyser_plant", {"h2_in_o2": 1.0}),
 ("el-28", "electrolyser_plant", {"h2_in_o2": 1.01}),
 ("el-29", "electrolyser_plant", {"h2_in_o2": 1.99}),
 ("el-30", "electrolyser_plant", {"h2_in_o2": 2.0}),
 ("el-31", "electrolyser_plant", {"h2_in_o2": 3.0}),                        # history "set at 3.0 %"
 ("el-32", "electrolyser_plant", {"enclosure_h2": 10}),
 ("el-33", "electrolyser_plant", {"enclosure_h2": 10.1}),
 ("el-34", "electrolyser_plant", {"enclosure_h2": 24.9}),
 ("el-35", "electrolyser_plant", {"enclosure_h2": 25}),
 ("el-36", "electrolyser_plant", {"o2_separator_level": 0.35}),
 ("el-37", "electrolyser_plant", {"o2_separator_level": 0.349}),
 ("el-38", "electrolyser_plant", {"o2_separator_level": 350}),              # an mm-sized reading: out of the m range
 ("el-39", "electrolyser_plant", {"h2_separator_level": 30}),
 ("el-40", "electrolyser_plant", {"h2_separator_level": 29.9}),
 ("el-41", "electrolyser_plant", {"h2_separator_level": 70}),
 ("el-42", "electrolyser_plant", {"h2_separator_level": 70.1}),
 ("el-43", "electrolyser_plant", {"h2_separator_level": 84.9}),
 ("el-44", "electrolyser_plant", {"h2_separator_level": 85}),
 ("el-45", "electrolyser_plant", {"h2_separator_level": 50}),               # start-up "fill the separators to 50 %"
 ("el-46", "electrolyser_plant", {"water_conductivity": 0.49}),
 ("el-47", "electrolyser_plant", {"water_conductivity": 0.5}),
 ("el-48", "electrolyser_plant", {"water_conductivity": 1.0}),
 ("el-49", "electrolyser_plant", {"water_conductivity": 1.01}),
 ("el-50", "electrolyser_plant", {"water_conductivity": 0.15}),             # typical 0.1 to 0.2 µS/cm
 ("el-51", "electrolyser_plant", {"water_conductivity": 0.05}),             # start-up "less than 0.1 µS/cm"
 ("el-52", "electrolyser_plant", {"water_conductivity": "nan"}),
 ("el-53", "electrolyser_plant", {"o2_separator_pressure": 2}),
 ("el-54", "electrolyser_plant", {"o2_separator_pressure": 1.99}),
 ("el-55", "electrolyser_plant", {"o2_separator_pressure": 15}),
 ("el-56", "electrolyser_plant", {"o2_separator_pressure": 15.01}),
 ("el-57", "electrolyser_plant", {"o2_separator_pressure": 150}),           # an mbar-sized reading: out of the kPa range
 ("el-58", "electrolyser_plant", {"dew_point": -94}),                       # design dew point -70 °C: descriptive
 ("el-59", "electrolyser_plant", {"dew_point": -40}),
 ("el-60", "electrolyser_plant", {"dew_point": -39.9}),
 ("el-61", "electrolyser_plant", {"dew_point": -80}),                       # duration rule: never in query
 ("el-62", "electrolyser_plant", {"h2_outlet_pressure": 3.2}),
 ("el-63", "electrolyser_plant", {"h2_outlet_pressure": 3.21}),
 ("el-64", "electrolyser_plant", {"h2_outlet_pressure": 3.6}),              # above the PSV set pressure too
 ("el-65", "electrolyser_plant", {"h2_outlet_pressure": 32}),               # a bar-sized reading: out of the MPa range
 ("el-66", "electrolyser_plant", {"stack_current": 4000, "stack_voltage": 0.475, "cell_voltage": 1.9,
                                  "stack_temperature": 150, "h2_in_o2": 0.3, "enclosure_h2": 0, "o2_separator_level": 0.8,
                                  "h2_separator_level": 50, "water_conductivity": 0.15, "o2_separator_pressure": 8,
                                  "dew_point": -94, "h2_outlet_pressure": 3.0}),   # all normal
 # helicopter_transmission (TGT, MGB oil temperature and OAT in degF: 880/900 °C = 1616/1652 °F, 115/110/105/100/10 °C =
 #   239/230/221/212/50 °F, -35/40 °C = -31/104 °F; MGB oil pressure in kPa: 1.5/6.5/1.0 bar = 150/650/100 kPa;
 #   airspeed in km/h: 150 kt = 277.8 km/h)
 ("hx-01", "helicopter_transmission", {"torque": 110}),
 ("hx-02", "helicopter_transmission", {"torque": 110.1}),                 # duration rule not in query
 ("hx-03", "helicopter_transmission", {"torque": 120}),
 ("hx-04", "helicopter_transmission", {"torque": 120.1}),
 ("hx-05", "helicopter_transmission", {"torque": 75}),                    # "Torque, typical cruise .... 75 %": descriptive
 ("hx-06", "helicopter_transmission", {"torque": 75, "airspeed": 240.76}),   # cruise 130 kt at 75 % torque
 ("hx-07", "helicopter_transmission", {"airspeed": 277.8}),
 ("hx-08", "helicopter_transmission", {"airspeed": 277.81}),
 ("hx-09", "helicopter_transmission", {"airspeed": 150}),                 # a kt-sized reading: 150 km/h is slow
 ("hx-10", "helicopter_transmission", {"tgt": 1616}),
 ("hx-11", "helicopter_transmission", {"tgt": 1616.1}),
 ("hx-12", "helicopter_transmission", {"tgt": 1607}),                     # 875 °C: between the old and new red line
 ("hx-13", "helicopter_transmission", {"tgt": 1652}),
 ("hx-14", "helicopter_transmission", {"tgt": 1652.1}),
 ("hx-15", "helicopter_transmission", {"tgt": 880}),                      # a °C-sized reading: 880 °F is cool
 ("hx-16", "helicopter_transmission", {"mgb_oil_pressure": 150}),
 ("hx-17", "helicopter_transmission", {"mgb_oil_pressure": 149.9}),
 ("hx-18", "helicopter_transmission", {"mgb_oil_pressure": 100}),
 ("hx-19", "helicopter_transmission", {"mgb_oil_pressure": 99.9}),
 ("hx-20", "helicopter_transmission", {"mgb_oil_pressure": 650}),
 ("hx-21", "helicopter_transmission", {"mgb_oil_pressure": 650.1}),
 ("hx-22", "helicopter_transmission", {"mgb_oil_pressure": 1.2}),         # a bar-sized reading: 1.2 kPa is a pressure loss
 ("hx-23", "helicopter_transmission", {"mgb_oil_temperature": 239}),      # unless/except parameters absent
 ("hx-24", "helicopter_transmission", {"mgb_oil_temperature": 239.1}),
 ("hx-25", "helicopter_transmission", {"mgb_oil_temperature": 230.1, "mgb_oil_pressure": 149}),
 ("hx-26", "helicopter_transmission", {"mgb_oil_temperature": 230, "mgb_oil_pressure": 149}),
 ("hx-27", "helicopter_transmission", {"mgb_oil_temperature": 230, "mgb_oil_pressure": 150}),
 ("hx-28", "helicopter_transmission", {"mgb_oil_temperature": 212, "mgb_oil_pressure": 300}),
 ("hx-29", "helicopter_transmission", {"mgb_oil_temperature": 211.9, "mgb_oil_pressure": 300}),
 ("hx-30", "helicopter_transmission", {"mgb_oil_temperature": 220}),      # unless-parameter absent
 ("hx-31", "helicopter_transmission", {"mgb_oil_temperature": 221.1, "outside_air_temperature": 104, "mgb_oil_pressure": 300}),
 ("hx-32", "helicopter_transmission", {"mgb_oil_temperature": 221.1, "outside_air_temperature": 104.1, "mgb_oil_pressure": 300}),
 ("hx-33", "helicopter_transmission", {"mgb_oil_temperature": 221, "outside_air_temperature": 50, "mgb_oil_pressure": 300}),
 ("hx-34", "helicopter_transmission", {"mgb_oil_temperature": 225, "outside_air_temperature": "nan", "mgb_oil_pressure": 300}),
 ("hx-35", "helicopter_transmission", {"mgb_oil_temperature": 167}),      # "normal range ... 50 to 100 °C": descriptive
 ("hx-36", "helicopter_transmission", {"mgb_oil_temperature": 115, "mgb_oil_pressure": 300}),   # a °C-sized reading
 ("hx-37", "helicopter_transmission", {"torque": 70.1, "mgb_oil_temperature": 49.9}),
 ("hx-38", "helicopter_transmission", {"torque": 70, "mgb_oil_temperature": 40}),
 ("hx-39", "helicopter_transmission", {"torque": 80, "mgb_oil_temperature": 50}),
 ("hx-40", "helicopter_transmission", {"torque": 90}),                    # while-parameter absent
 ("hx-41", "helicopter_transmission", {"torque": 60, "airspeed": 129.64}),   # shutdown procedure 60 % / 70 kt
 ("hx-42", "helicopter_transmission", {"outside_air_temperature": -31}),
 ("hx-43", "helicopter_transmission", {"outside_air_temperature": -31.1}),
 ("hx-44", "helicopter_transmission", {"outside_air_temperature": -35}),  # a °C-sized reading: -35 °F is colder
 ("hx-45", "helicopter_transmission", {"rotor_speed": 104}),
 ("hx-46", "helicopter_transmission", {"rotor_speed": 104.1}),
 ("hx-47", "helicopter_transmission", {"rotor_speed": 110}),
 ("hx-48", "helicopter_transmission", {"rotor_speed": 110.5}),
 ("hx-49", "helicopter_transmission", {"rotor_speed": 97}),
 ("hx-50", "helicopter_transmission", {"rotor_speed": 96.9}),
 ("hx-51", "helicopter_transmission", {"rotor_speed": 95}),
 ("hx-52", "helicopter_transmission", {"rotor_speed": 94.9}),
 ("hx-53", "helicopter_transmission", {"rotor_speed": 100}),              # governor set speed: descriptive
 ("hx-54", "helicopter_transmission", {"chip_detector_count": 1}),
 ("hx-55", "helicopter_transmission", {"chip_detector_count": 2}),
 ("hx-56", "helicopter_transmission", {"chip_detector_count": 3}),
 ("hx-57", "helicopter_transmission", {"torque": 75, "rotor_speed": 100, "tgt": 1400, "mgb_oil_pressure": 450,
                                       "mgb_oil_temperature": 180, "chip_detector_count": 0, "airspeed": 240.76,
                                       "outside_air_temperature": 59}),   # all normal
 # hyperbaric_chamber (chamber pressure in kPa absolute: 3.0 bar = 300 kPa; air supply pressure in psi: 7 bar =
 #   101.526421 psi; chamber temperature in degF: 20/27/30/23 °C = 68/80.6/86/73.4 °F; dew point in K: -20 °C = 253.15 K)
 ("hb-01", "hyperbaric_chamber", {"air_supply_pressure": 101.52}),
 ("hb-02", "hyperbaric_chamber", {"air_supply_pressure": 101.53}),
 ("hb-03", "hyperbaric_chamber", {"air_supply_pressure": 7}),             # a bar-sized reading: 7 psi is low
 ("hb-04", "hyperbaric_chamber", {"air_supply_pressure": "nan"}),
 ("hb-05", "hyperbaric_chamber", {"air_dew_point": 253.15}),
 ("hb-06", "hyperbaric_chamber", {"air_dew_point": 253.2}),
 ("hb-07", "hyperbaric_chamber", {"air_dew_point": -20}),                 # a °C-sized reading: out of the K range
 ("hb-08", "hyperbaric_chamber", {"chamber_pressure": 300}),
 ("hb-09", "hyperbaric_chamber", {"chamber_pressure": 300.1}),
 ("hb-10", "hyperbaric_chamber", {"chamber_pressure": 243}),              # treatment table 2.4 ATA
 ("hb-11", "hyperbaric_chamber", {"chamber_pressure": 284}),              # treatment table 2.8 ATA
 ("hb-12", "hyperbaric_chamber", {"chamber_pressure": 150}),              # procedure "holding at 150 kPa"
 ("hb-13", "hyperbaric_chamber", {"o2_concentration": 23.5}),
 ("hb-14", "hyperbaric_chamber", {"o2_concentration": 23.6}),
 ("hb-15", "hyperbaric_chamber", {"o2_concentration": 24.5}),             # history "up to 25 %"
 ("hb-16", "hyperbaric_chamber", {"o2_concentration": 19.5}),
 ("hb-17", "hyperbaric_chamber", {"o2_concentration": 19.4}),
 ("hb-18", "hyperbaric_chamber", {"o2_concentration": 20.9}),             # calibration with room air
 ("hb-19", "hyperbaric_chamber", {"o2_concentration": 22, "chamber_pressure": 200.1}),
 ("hb-20", "hyperbaric_chamber", {"o2_concentration": 22, "chamber_pressure": 200}),
 ("hb-21", "hyperbaric_chamber", {"o2_concentration": 21.9, "chamber_pressure": 243}),
 ("hb-22", "hyperbaric_chamber", {"o2_concentration": 22}),               # while-parameter absent
 ("hb-23", "hyperbaric_chamber", {"o2_concentration": 24, "chamber_pressure": 243}),
 ("hb-24", "hyperbaric_chamber", {"o2_concentration": 22, "chamber_pressure": "nan"}),
 ("hb-25", "hyperbaric_chamber", {"co2_concentration": 0.5}),
 ("hb-26", "hyperbaric_chamber", {"co2_concentration": 0.51}),
 ("hb-27", "hyperbaric_chamber", {"co2_concentration": 0.05}),            # "normally remains below 0.1 %"
 ("hb-28", "hyperbaric_chamber", {"co2_concentration": 0.2}),
 ("hb-29", "hyperbaric_chamber", {"co2_concentration": 1.0, "chamber_pressure": 243}),
 ("hb-30", "hyperbaric_chamber", {"co2_concentration": 1.01, "chamber_pressure": 243}),
 ("hb-31", "hyperbaric_chamber", {"co2_concentration": 1.01, "chamber_pressure": 110}),
 ("hb-32", "hyperbaric_chamber", {"co2_concentration": 1.01, "chamber_pressure": 109.9}),
 ("hb-33", "hyperbaric_chamber", {"co2_concentration": 1.5}),             # unless-parameter absent
 ("hb-34", "hyperbaric_chamber", {"co2_concentration": 1.5, "chamber_pressure": "nan"}),
 ("hb-35", "hyperbaric_chamber", {"chamber_temperature": 68}),
 ("hb-36", "hyperbaric_chamber", {"chamber_temperature": 67.9}),
 ("hb-37", "hyperbaric_chamber", {"chamber_temperature": 80.6}),
 ("hb-38", "hyperbaric_chamber", {"chamber_temperature": 80.7}),
 ("hb-39", "hyperbaric_chamber", {"chamber_temperature": 73.4}),          # set point 23 °C
 ("hb-40", "hyperbaric_chamber", {"chamber_temperature": 27}),            # a °C-sized reading: 27 °F is cold
 ("hb-41", "hyperbaric_chamber", {"chamber_temperature": 90}),            # duration rule not in query
 ("hb-42", "hyperbaric_chamber", {"relative_humidity": 30}),
 ("hb-43", "hyperbaric_chamber", {"relative_humidity": 29.9}),
 ("hb-44", "hyperbaric_chamber", {"relative_humidity": 75, "chamber_temperature": 70}),
 ("hb-45", "hyperbaric_chamber", {"relative_humidity": 75.1, "chamber_temperature": 70}),
 ("hb-46", "hyperbaric_chamber", {"relative_humidity": 76, "chamber_temperature": 68}),
 ("hb-47", "hyperbaric_chamber", {"relative_humidity": 76, "chamber_temperature": 67.9}),
 ("hb-48", "hyperbaric_chamber", {"relative_humidity": 80}),              # except-parameter absent
 ("hb-49", "hyperbaric_chamber", {"relative_humidity": 80, "chamber_temperature": "nan"}),
 ("hb-50", "hyperbaric_chamber", {"spo2": 88}),
 ("hb-51", "hyperbaric_chamber", {"spo2": 88.1}),
 ("hb-52", "hyperbaric_chamber", {"spo2": 99.5, "chamber_pressure": 243}),   # typical 99 % to 100 %
 ("hb-53", "hyperbaric_chamber", {"chamber_pressure": 243, "o2_concentration": 21, "co2_concentration": 0.05,
                                  "chamber_temperature": 73.4, "relative_humidity": 50, "spo2": 99,
                                  "air_supply_pressure": 120, "air_dew_point": 230}),   # all normal
 # district_heating_substation (primary supply in K: 130/140/110 °C = 403.15/413.15/383.15 K; secondary supply in degF:
 #   95/70/20/35 °C = 203/158/68/95 °F; differential pressure in kPa: 0.8/6.0 bar = 80/600 kPa; expansion vessel in MPa:
 #   1.3/1.0/2.7/3.0/1.5 bar = 0.13/0.1/0.27/0.3/0.15 MPa; heat output in kW: 1.2 MW = 1200 kW)
 ("dh-01", "district_heating_substation", {"primary_supply_temperature": 403.15}),
 ("dh-02", "district_heating_substation", {"primary_supply_temperature": 403.2}),
 ("dh-03", "district_heating_substation", {"primary_supply_temperature": 408.15}),   # 135 °C: between old and new limit
 ("dh-04", "district_heating_substation", {"primary_supply_temperature": 383.15}),   # design 110 °C
 ("dh-05", "district_heating_substation", {"primary_supply_temperature": 130}),      # a °C-sized reading: out of the K range
 ("dh-06", "district_heating_substation", {"primary_return_temperature": 60}),
 ("dh-07", "district_heating_substation", {"primary_return_temperature": 60.1}),
 ("dh-08", "district_heating_substation", {"primary_return_temperature": 50}),
 ("dh-09", "district_heating_substation", {"primary_return_temperature": 49.9}),
 ("dh-10", "district_heating_substation", {"primary_return_temperature": 40}),       # secondary design return 40 °C
 ("dh-11", "district_heating_substation", {"differential_pressure": 80}),
 ("dh-12", "district_heating_substation", {"differential_pressure": 79.9}),
 ("dh-13", "district_heating_substation", {"differential_pressure": 600}),
 ("dh-14", "district_heating_substation", {"differential_pressure": 600.1}),
 ("dh-15", "district_heating_substation", {"differential_pressure": 0.8}),           # a bar-sized reading: 0.8 kPa is low
 ("dh-16", "district_heating_substation", {"heat_output": 1200}),
 ("dh-17", "district_heating_substation", {"heat_output": 1200.5}),
 ("dh-18", "district_heating_substation", {"heat_output": 1.5}),                     # an MW-sized reading: 1.5 kW
 ("dh-19", "district_heating_substation", {"secondary_supply_temperature": 203}),
 ("dh-20", "district_heating_substation", {"secondary_supply_temperature": 203.1}),
 ("dh-21", "district_heating_substation", {"secondary_supply_temperature": 158, "outdoor_temperature": -14}),   # heating curve
 ("dh-22", "district_heating_substation", {"secondary_supply_temperature": 157.9, "outdoor_temperature": -5.1}),
 ("dh-23", "district_heating_substation", {"secondary_supply_temperature": 157.9, "outdoor_temperature": -5}),
 ("dh-24", "district_heating_substation", {"secondary_supply_temperature": 150}),    # while-parameter absent
 ("dh-25", "district_heating_substation", {"secondary_supply_temperature": 150, "outdoor_temperature": "nan"}),
 ("dh-26", "district_heating_substation", {"secondary_supply_temperature": 95, "outdoor_temperature": 15}),     # heating curve
 ("dh-27", "district_heating_substation", {"outdoor_temperature": 2.9, "secondary_supply_temperature": 68}),
 ("dh-28", "district_heating_substation", {"outdoor_temperature": 2.9, "secondary_supply_temperature": 68.1}),
 ("dh-29", "district_heating_substation", {"outdoor_temperature": 3, "secondary_supply_temperature": 50}),
 ("dh-30", "district_heating_substation", {"outdoor_temperature": 2.9}),             # except-parameter absent
 ("dh-31", "district_heating_substation", {"outdoor_temperature": 2.9, "secondary_supply_temperature": "nan"}),
 ("dh-32", "district_heating_substation", {"outdoor_temperature": -6, "secondary_supply_temperature": 150}),
 ("dh-33", "district_heating_substation", {"outdoor_temperature": -6, "secondary_supply_temperature": 60}),
 ("dh-34", "district_heating_substation", {"pump_frequency": 25}),
 ("dh-35", "district_heating_substation", {"pump_frequency": 24.9}),
 ("dh-36", "district_heating_substation", {"pump_frequency": 35}),                   # commissioning "Set ... to 35 Hz"
 ("dh-37", "district_heating_substation", {"expansion_vessel_pressure": 0.13, "makeup_water_flow": 0}),
 ("dh-38", "district_heating_substation", {"expansion_vessel_pressure": 0.129, "makeup_water_flow": 0}),
 ("dh-39", "district_heating_substation", {"expansion_vessel_pressure": 0.129, "makeup_water_flow": 50}),
 ("dh-40", "district_heating_substation", {"expansion_vessel_pressure": 0.129, "makeup_water_flow": 50.1}),
 ("dh-41", "district_heating_substation", {"expansion_vessel_pressure": 0.129}),     # unless-parameter absent
 ("dh-42", "district_heating_substation", {"expansion_vessel_pressure": 0.1, "makeup_water_flow": 0}),
 ("dh-43", "district_heating_substation", {"expansion_vessel_pressure": 0.099, "makeup_water_flow": 0}),
 ("dh-44", "district_heating_substation", {"expansion_vessel_pressure": 0.27}),
 ("dh-45", "district_heating_substation", {"expansion_vessel_pressure": 0.271}),
 ("dh-46", "district_heating_substation", {"expansion_vessel_pressure": 0.3}),       # safety valve responds at 3.0 bar
 ("dh-47", "district_heating_substation", {"expansion_vessel_pressure": 0.15, "makeup_water_flow": 0}),   # commissioning 1.5 bar
 ("dh-48", "district_heating_substation", {"expansion_vessel_pressure": 1.5}),       # a bar-sized reading: out of the MPa range
 ("dh-49", "district_heating_substation", {"makeup_water_flow": 20}),                # "up to 20 L/h ... are normal"
 ("dh-50", "district_heating_substation", {"makeup_water_flow": 60}),                # duration rule not in query
 ("dh-51", "district_heating_substation", {"primary_supply_temperature": 383.15, "primary_return_temperature": 45,
                                           "secondary_supply_temperature": 140, "outdoor_temperature": 5,
                                           "differential_pressure": 250, "expansion_vessel_pressure": 0.18,
                                           "makeup_water_flow": 0, "heat_output": 800, "pump_frequency": 40}),   # all normal
 # spacecraft_eclss (cabin total pressure in kPa: 14.0/14.9/13.9/10.2/14.7/12.0 psia = 96.5266/102.7319/95.8371/70.3265/
 #   101.3529/82.7371 kPa; ppO2 in kPa: 146/155/178/130 mmHg = 19.4651/20.6650/23.7314/17.3319 kPa; ppCO2 in mmHg:
 #   1.0 kPa = 7.5006 mmHg; temperatures in degC: 65/82/50/38 °F = 18.333/27.778/10/3.333 °C)
 ("ec-01", "spacecraft_eclss", {"cabin_pressure": 96.52}),
 ("ec-02", "spacecraft_eclss", {"cabin_pressure": 96.53}),
 ("ec-03", "spacecraft_eclss", {"cabin_pressure": 102.73}),
 ("ec-04", "spacecraft_eclss", {"cabin_pressure": 102.74}),
 ("ec-05", "spacecraft_eclss", {"cabin_pressure": 101.35}),             # nominal 14.7 psia (table, rationale)
 ("ec-06", "spacecraft_eclss", {"cabin_pressure": 101.36}),
 ("ec-07", "spacecraft_eclss", {"cabin_pressure": 95.83}),
 ("ec-08", "spacecraft_eclss", {"cabin_pressure": 95.84}),
 ("ec-09", "spacecraft_eclss", {"cabin_pressure": 82.74}),
 ("ec-10", "spacecraft_eclss", {"cabin_pressure": 82.73}),
 ("ec-11", "spacecraft_eclss", {"cabin_pressure": 70.33}),
 ("ec-12", "spacecraft_eclss", {"cabin_pressure": 70.32}),
 ("ec-13", "spacecraft_eclss", {"cabin_pressure": 14.2}),               # a psia-sized reading: 14.2 kPa is a depress
 ("ec-14", "spacecraft_eclss", {"cabin_pressure": 150}),                # out of the manifest range -> invalid
 ("ec-15", "spacecraft_eclss", {"cabin_pressure": "nan"}),
 ("ec-16", "spacecraft_eclss", {"cabin_pressure": 104.8}),              # relief valves open at 15.2 psia (descriptive)
 ("ec-17", "spacecraft_eclss", {"ppo2": 19.46}),                        # unless-parameter absent
 ("ec-18", "spacecraft_eclss", {"ppo2": 19.47}),
 ("ec-19", "spacecraft_eclss", {"ppo2": 20.66, "o2_concentration": 21}),
 ("ec-20", "spacecraft_eclss", {"ppo2": 20.67, "o2_concentration": 21}),
 ("ec-21", "spacecraft_eclss", {"ppo2": 20.0, "o2_concentration": 23.0}),
 ("ec-22", "spacecraft_eclss", {"ppo2": 20.0, "o2_concentration": 23.1}),
 ("ec-23", "spacecraft_eclss", {"ppo2": 20.0, "o2_concentration": "nan"}),
 ("ec-24", "spacecraft_eclss", {"ppo2": 23.73}),
 ("ec-25", "spacecraft_eclss", {"ppo2": 23.74}),
 ("ec-26", "spacecraft_eclss", {"o2_concentration": 24.1}),
 ("ec-27", "spacecraft_eclss", {"o2_concentration": 24.2}),
 ("ec-28", "spacecraft_eclss", {"ppo2": 17.33, "o2_concentration": 21}),
 ("ec-29", "spacecraft_eclss", {"ppo2": 17.34, "o2_concentration": 21}),
 ("ec-30", "spacecraft_eclss", {"ppo2": 17.34, "cabin_pressure": 82.7}),
 ("ec-31", "spacecraft_eclss", {"ppo2": "nan", "cabin_pressure": 82.7}),
 ("ec-32", "spacecraft_eclss", {"ppo2": 146}),                          # an mmHg-sized reading: out of the kPa range
 ("ec-33", "spacecraft_eclss", {"ppo2": 22.0, "o2_concentration": 21}), # 165 mmHg: nominal (table)
 ("ec-34", "spacecraft_eclss", {"ppco2": 4.5}),                         # duration rule: never in a query
 ("ec-35", "spacecraft_eclss", {"ppco2": 5.9}),
 ("ec-36", "spacecraft_eclss", {"ppco2": 6.0}),
 ("ec-37", "spacecraft_eclss", {"ppco2": 7.49, "cabin_pressure": 100}),
 ("ec-38", "spacecraft_eclss", {"ppco2": 7.51, "cabin_pressure": 100}),
 ("ec-39", "spacecraft_eclss", {"ppco2": 7.51, "cabin_pressure": 95.8}),
 ("ec-40", "spacecraft_eclss", {"ppco2": 7.51}),                        # except-parameter absent
 ("ec-41", "spacecraft_eclss", {"ppco2": 7.51, "cabin_pressure": "nan"}),
 ("ec-42", "spacecraft_eclss", {"ppco2": 2.5}),                         # "normally keep the ppCO2 between 2.0 and 3.0"
 ("ec-43", "spacecraft_eclss", {"ppco2": 5.3}),                         # history: the old 5.3 mmHg limit
 ("ec-44", "spacecraft_eclss", {"relative_humidity": 25}),
 ("ec-45", "spacecraft_eclss", {"relative_humidity": 24.9}),
 ("ec-46", "spacecraft_eclss", {"relative_humidity": 75}),
 ("ec-47", "spacecraft_eclss", {"relative_humidity": 75.1}),
 ("ec-48", "spacecraft_eclss", {"relative_humidity": 72, "cabin_air_temperature": 18.33}),
 ("ec-49", "spacecraft_eclss", {"relative_humidity": 72, "cabin_air_temperature": 18.34}),
 ("ec-50", "spacecraft_eclss", {"relative_humidity": 70, "cabin_air_temperature": 15}),
 ("ec-51", "spacecraft_eclss", {"relative_humidity": 80, "cabin_air_temperature": 15}),
 ("ec-52", "spacecraft_eclss", {"relative_humidity": 80}),              # while-parameter absent
 ("ec-53", "spacecraft_eclss", {"relative_humidity": 72, "cabin_air_temperature": 65}),   # a °F-sized reading: out of range
 ("ec-54", "spacecraft_eclss", {"cabin_air_temperature": 27.77}),
 ("ec-55", "spacecraft_eclss", {"cabin_air_temperature": 27.78}),
 ("ec-56", "spacecraft_eclss", {"cabin_air_temperature": 22.22, "relative_humidity": 50}),   # set point 72 °F (procedure)
 ("ec-57", "spacecraft_eclss", {"ccaa_fan_speed": 2500}),
 ("ec-58", "spacecraft_eclss", {"ccaa_fan_speed": 2499}),
 ("ec-59", "spacecraft_eclss", {"ccaa_fan_speed": 9000}),               # out of range
 ("ec-60", "spacecraft_eclss", {"ltl_supply_temperature": 10}),
 ("ec-61", "spacecraft_eclss", {"ltl_supply_temperature": 10.01}),
 ("ec-62", "spacecraft_eclss", {"ltl_supply_temperature": 3.33}),
 ("ec-63", "spacecraft_eclss", {"ltl_supply_temperature": 3.34}),
 ("ec-64", "spacecraft_eclss", {"ltl_supply_temperature": 4.44}),       # set point 40 °F (note)
 ("ec-65", "spacecraft_eclss", {"ltl_supply_temperature": 50}),         # a °F-sized reading: out of range
 ("ec-66", "spacecraft_eclss", {"ltl_accumulator_quantity": 20}),
 ("ec-67", "spacecraft_eclss", {"ltl_accumulator_quantity": 19.9}),
 ("ec-68", "spacecraft_eclss", {"ltl_accumulator_quantity": 85}),
 ("ec-69", "spacecraft_eclss", {"ltl_accumulator_quantity": 85.1}),
 ("ec-70", "spacecraft_eclss", {"cabin_pressure": 101.3, "ppo2": 21.3, "ppco2": 2.6, "o2_concentration": 21.5,
                                "relative_humidity": 50, "cabin_air_temperature": 22, "ccaa_fan_speed": 3500,
                                "ltl_supply_temperature": 4.5, "ltl_accumulator_quantity": 50}),   # all normal
 # blood_bank (refrigerator and freezer in degF: 1/6/7/10/0 °C = 33.8/42.8/44.6/50/32 °F, -18/-25/-40 °C =
 #   -0.4/-13/-40 °F; door open time and time out of storage in s; agitation stop time in min)
 ("bb-01", "blood_bank", {"fridge_temperature": 39.2}),                 # 4 °C: set point (table 2)
 ("bb-02", "blood_bank", {"fridge_temperature": 42.8}),
 ("bb-03", "blood_bank", {"fridge_temperature": 42.9}),
 ("bb-04", "blood_bank", {"fridge_temperature": 33.8}),
 ("bb-05", "blood_bank", {"fridge_temperature": 33.7}),
 ("bb-06", "blood_bank", {"fridge_temperature": 32}),
 ("bb-07", "blood_bank", {"fridge_temperature": 32.1}),
 ("bb-08", "blood_bank", {"fridge_temperature": 44.6, "door_open_time": 0}),
 ("bb-09", "blood_bank", {"fridge_temperature": 44.7, "door_open_time": 0}),
 ("bb-10", "blood_bank", {"fridge_temperature": 44.7, "door_open_time": 60}),
 ("bb-11", "blood_bank", {"fridge_temperature": 44.7, "door_open_time": 61}),
 ("bb-12", "blood_bank", {"fridge_temperature": 44.7}),                 # unless-parameter absent
 ("bb-13", "blood_bank", {"fridge_temperature": 44.7, "door_open_time": "nan"}),
 ("bb-14", "blood_bank", {"fridge_temperature": 50, "door_open_time": 0}),
 ("bb-15", "blood_bank", {"fridge_temperature": 50.1, "door_open_time": 0}),
 ("bb-16", "blood_bank", {"fridge_temperature": 5}),                    # a °C-sized reading: 5 °F is frozen
 ("bb-17", "blood_bank", {"fridge_temperature": 200}),                  # out of range
 ("bb-18", "blood_bank", {"fridge_temperature": 41.9}),                 # 5.5 °C: alarm set point (descriptive)
 ("bb-19", "blood_bank", {"fridge_temperature": 34.7}),                 # 1.5 °C: alarm set point (descriptive)
 ("bb-20", "blood_bank", {"fridge_temperature": 46.4}),                 # 8 °C: defrost sentence; unless-parameter absent
 ("bb-21", "blood_bank", {"fridge_temperature": 33.9}),                 # "should agree within 1 °C" (procedure)
 ("bb-22", "blood_bank", {"door_open_time": 180}),
 ("bb-23", "blood_bank", {"door_open_time": 181}),
 ("bb-24", "blood_bank", {"door_open_time": 301}),                      # history: the old 5-minute delay
 ("bb-25", "blood_bank", {"door_open_time": 4}),                        # a min-sized reading: 4 s
 ("bb-26", "blood_bank", {"freezer_temperature": -22}),                 # -30 °C: set point
 ("bb-27", "blood_bank", {"freezer_temperature": -0.4}),
 ("bb-28", "blood_bank", {"freezer_temperature": -0.3}),
 ("bb-29", "blood_bank", {"freezer_temperature": -12}),                 # duration rule: never in a query
 ("bb-30", "blood_bank", {"freezer_temperature": -40}),
 ("bb-31", "blood_bank", {"freezer_temperature": -40.1}),
 ("bb-32", "blood_bank", {"freezer_temperature": -18}),                 # a °C-sized reading: -18 °F = -27.8 °C is fine
 ("bb-33", "blood_bank", {"freezer_temperature": 14}),                  # -10 °C
 ("bb-34", "blood_bank", {"freezer_temperature": -130}),                # out of range
 ("bb-35", "blood_bank", {"incubator_temperature": 22}),                # set point (table 2)
 ("bb-36", "blood_bank", {"incubator_temperature": 20}),
 ("bb-37", "blood_bank", {"incubator_temperature": 19.9}),
 ("bb-38", "blood_bank", {"incubator_temperature": 24}),
 ("bb-39", "blood_bank", {"incubator_temperature": 24.1}),
 ("bb-40", "blood_bank", {"incubator_temperature": 18}),
 ("bb-41", "blood_bank", {"incubator_temperature": 17.9}),
 ("bb-42", "blood_bank", {"incubator_temperature": "nan"}),
 ("bb-43", "blood_bank", {"agitation_rate": 60}),
 ("bb-44", "blood_bank", {"agitation_rate": 59}),
 ("bb-45", "blood_bank", {"agitation_rate": 70}),
 ("bb-46", "blood_bank", {"agitation_rate": 71}),
 ("bb-47", "blood_bank", {"agitation_stop_time": 1440}),
 ("bb-48", "blood_bank", {"agitation_stop_time": 1441}),
 ("bb-49", "blood_bank", {"agitation_stop_time": 25}),                  # an h-sized reading: 25 min
 ("bb-50", "blood_bank", {"water_bath_temperature": 37}),
 ("bb-51", "blood_bank", {"water_bath_temperature": 37.1}),
 ("bb-52", "blood_bank", {"water_bath_temperature": 30}),
 ("bb-53", "blood_bank", {"water_bath_temperature": 29.9}),
 ("bb-54", "blood_bank", {"water_bath_temperature": 39}),
 ("bb-55", "blood_bank", {"water_bath_temperature": 39.1}),
 ("bb-56", "blood_bank", {"water_bath_level": 80}),
 ("bb-57", "blood_bank", {"water_bath_level": 79}),
 ("bb-58", "blood_bank", {"time_out_of_storage": 1800, "unit_surface_temperature": 8}),
 ("bb-59", "blood_bank", {"time_out_of_storage": 1801, "unit_surface_temperature": 8}),
 ("bb-60", "blood_bank", {"time_out_of_storage": 600, "unit_surface_temperature": 10}),
 ("bb-61", "blood_bank", {"time_out_of_storage": 600, "unit_surface_temperature": 10.1}),
 ("bb-62", "blood_bank", {"time_out_of_storage": 1801, "unit_surface_temperature": "nan"}),
 ("bb-63", "blood_bank", {"unit_surface_temperature": 12}),             # time out of storage absent: fires through B
 ("bb-64", "blood_bank", {"time_out_of_storage": 45, "unit_surface_temperature": 5}),   # a min-sized reading: 45 s
 ("bb-65", "blood_bank", {"fridge_temperature": 39.2, "door_open_time": 20, "freezer_temperature": -22,
                          "incubator_temperature": 22, "agitation_rate": 65, "agitation_stop_time": 0,
                          "water_bath_temperature": 37, "water_bath_level": 95, "time_out_of_storage": 600,
                          "unit_surface_temperature": 5}),   # all normal
 # fired_heater (tube-skin and coil outlet in degC: 1,050/1,000/700 °F = 565.556/537.778/371.111 °C; stack in K:
 #   850/300 °F = 727.594/422.039 K; arch pressure in Pa: -0.5/-0.1/-0.05/+0.25 mbar = -50/-10/-5/25 Pa; gas
 #   pressures in kPa: 5/30/8/3 psig = 34.4738/206.8427/55.1581/20.6843 kPa)
 ("fh-01", "fired_heater", {"tube_skin_temperature": 537.77}),
 ("fh-02", "fired_heater", {"tube_skin_temperature": 537.78}),
 ("fh-03", "fired_heater", {"tube_skin_temperature": 565.55}),
 ("fh-04", "fired_heater", {"tube_skin_temperature": 565.56}),
 ("fh-05", "fired_heater", {"tube_skin_temperature": 621.11}),          # design 1,150 °F (descriptive)
 ("fh-06", "fired_heater", {"tube_skin_temperature": 582.22}),          # 1,080 °F: between the old and new limit
 ("fh-07", "fired_heater", {"tube_skin_temperature": 1060}),            # a °F-sized reading: out of range
 ("fh-08", "fired_heater", {"tube_skin_temperature": "nan"}),
 ("fh-09", "fired_heater", {"tube_skin_temperature": 540, "firing_rate": 50}),   # firing rate named in the action
 ("fh-10", "fired_heater", {"coil_outlet_temperature": 360}),           # 680 °F: "until … reaches 680 °F" (procedure)
 ("fh-11", "fired_heater", {"coil_outlet_temperature": 371.11}),
 ("fh-12", "fired_heater", {"coil_outlet_temperature": 371.12}),
 ("fh-13", "fired_heater", {"stack_temperature": 727.59}),
 ("fh-14", "fired_heater", {"stack_temperature": 727.6}),
 ("fh-15", "fired_heater", {"stack_temperature": 422.03}),
 ("fh-16", "fired_heater", {"stack_temperature": 422.04}),
 ("fh-17", "fired_heater", {"stack_temperature": 438.71}),              # 330 °F: typical (descriptive)
 ("fh-18", "fired_heater", {"stack_temperature": 672.04}),              # 750 °F: APH inlet (descriptive)
 ("fh-19", "fired_heater", {"stack_temperature": 300}),                 # a °F-sized reading: 300 K is cold
 ("fh-20", "fired_heater", {"arch_pressure": -25}),                     # normal draft 0.25 mbar
 ("fh-21", "fired_heater", {"arch_pressure": -50}),
 ("fh-22", "fired_heater", {"arch_pressure": -50.1}),
 ("fh-23", "fired_heater", {"arch_pressure": -10}),
 ("fh-24", "fired_heater", {"arch_pressure": -9.9}),
 ("fh-25", "fired_heater", {"arch_pressure": -5, "firing_rate": 80}),
 ("fh-26", "fired_heater", {"arch_pressure": -4.9, "firing_rate": 80}),
 ("fh-27", "fired_heater", {"arch_pressure": -4.9, "firing_rate": 79.9}),
 ("fh-28", "fired_heater", {"arch_pressure": -4.9}),                    # while-parameter absent
 ("fh-29", "fired_heater", {"arch_pressure": 25}),
 ("fh-30", "fired_heater", {"arch_pressure": 25.1}),
 ("fh-31", "fired_heater", {"arch_pressure": 25.1, "firing_rate": 90}),
 ("fh-32", "fired_heater", {"arch_pressure": -0.25}),                   # an mbar-sized reading: -0.25 Pa
 ("fh-33", "fired_heater", {"flue_gas_o2": 3.0, "firing_rate": 90}),    # typical (descriptive)
 ("fh-34", "fired_heater", {"flue_gas_o2": 0.9, "firing_rate": 70}),    # duration rule not in a query
 ("fh-35", "fired_heater", {"flue_gas_o2": 1.0, "firing_rate": 70}),
 ("fh-36", "fired_heater", {"flue_gas_o2": 8.0, "firing_rate": 70}),
 ("fh-37", "fired_heater", {"flue_gas_o2": 8.1, "firing_rate": 70}),
 ("fh-38", "fired_heater", {"flue_gas_o2": 8.1, "firing_rate": 29.9}),
 ("fh-39", "fired_heater", {"flue_gas_o2": 8.1, "firing_rate": 30}),
 ("fh-40", "fired_heater", {"flue_gas_o2": 8.1}),                       # except-parameter absent
 ("fh-41", "fired_heater", {"flue_gas_o2": 0.5, "firing_rate": "nan"}),
 ("fh-42", "fired_heater", {"flue_gas_o2": 6, "firing_rate": 50}),
 ("fh-43", "fired_heater", {"flue_gas_o2": 6, "firing_rate": 50.1}),
 ("fh-44", "fired_heater", {"flue_gas_o2": 5.9, "firing_rate": 90}),
 ("fh-45", "fired_heater", {"flue_gas_co": 400, "flue_gas_o2": 3}),
 ("fh-46", "fired_heater", {"flue_gas_co": 401, "flue_gas_o2": 3, "combustion_air_flow": 50}),
 ("fh-47", "fired_heater", {"flue_gas_co": 401, "flue_gas_o2": 4}),
 ("fh-48", "fired_heater", {"flue_gas_co": 401, "flue_gas_o2": 4.1}),
 ("fh-49", "fired_heater", {"flue_gas_co": 401}),                       # unless-parameter absent
 ("fh-50", "fired_heater", {"flue_gas_co": 1000, "flue_gas_o2": 5}),
 ("fh-51", "fired_heater", {"flue_gas_co": 1001, "flue_gas_o2": 5}),
 ("fh-52", "fired_heater", {"flue_gas_co": 1001, "flue_gas_o2": 2}),
 ("fh-53", "fired_heater", {"fuel_gas_pressure": 34.47}),
 ("fh-54", "fired_heater", {"fuel_gas_pressure": 34.48}),
 ("fh-55", "fired_heater", {"fuel_gas_pressure": 55.15}),
 ("fh-56", "fired_heater", {"fuel_gas_pressure": 55.16}),
 ("fh-57", "fired_heater", {"fuel_gas_pressure": 206.84}),
 ("fh-58", "fired_heater", {"fuel_gas_pressure": 206.85}),
 ("fh-59", "fired_heater", {"fuel_gas_pressure": 124.1}),               # 18 psig set point (procedure)
 ("fh-60", "fired_heater", {"fuel_gas_pressure": 18}),                  # a psig-sized reading: 18 kPa is low
 ("fh-61", "fired_heater", {"pilot_gas_pressure": 20.68}),
 ("fh-62", "fired_heater", {"pilot_gas_pressure": 20.69}),
 ("fh-63", "fired_heater", {"flame_signal": 14.9}),
 ("fh-64", "fired_heater", {"flame_signal": 15}),
 ("fh-65", "fired_heater", {"flame_signal": 30}),
 ("fh-66", "fired_heater", {"flame_signal": 30.1}),
 ("fh-67", "fired_heater", {"flame_signal": "nan"}),
 ("fh-68", "fired_heater", {"pass_flow": 24.9}),
 ("fh-69", "fired_heater", {"pass_flow": 25}),
 ("fh-70", "fired_heater", {"pass_flow": 40}),
 ("fh-71", "fired_heater", {"pass_flow": 45}),                          # procedure value
 ("fh-72", "fired_heater", {"combustion_air_flow": 19.9}),
 ("fh-73", "fired_heater", {"combustion_air_flow": 20}),
 ("fh-74", "fired_heater", {"combustion_air_flow": 30, "firing_rate": 10}),   # procedure values ("no more than 10 %")
 ("fh-75", "fired_heater", {"fuel_gas_pressure": 30, "flame_signal": 10}),    # two MFT causes at once
 ("fh-77", "fired_heater", {"flue_gas_o2": 0.9, "firing_rate": 20}),    # except covers the low side too
 ("fh-76", "fired_heater", {"tube_skin_temperature": 480, "coil_outlet_temperature": 360, "stack_temperature": 438.7,
                            "arch_pressure": -25, "firing_rate": 90, "flue_gas_o2": 3.0, "flue_gas_co": 50,
                            "fuel_gas_pressure": 130, "pilot_gas_pressure": 70, "flame_signal": 80, "pass_flow": 60,
                            "combustion_air_flow": 95}),   # all normal
 # hydropower_unit (stator winding in degF: 120/130 °C = 248/266 °F; penstock and draft tube in bar: 1.85/0.60/0.40 MPa
 #   = 18.5/6/4 bar, -45 kPa = -0.45 bar; governor oil in psi: 36/32/37 bar = 522.13586/464.12076/536.63963 psi;
 #   brake air in kPa: 6 bar = 600 kPa)
 ("hy-01", "hydropower_unit", {"ugb_temperature": 55, "thrust_pad_temperature": 63}),   # typical values (descriptive)
 ("hy-02", "hydropower_unit", {"ugb_temperature": 70}),
 ("hy-03", "hydropower_unit", {"ugb_temperature": 70.1}),
 ("hy-04", "hydropower_unit", {"ugb_temperature": 80}),
 ("hy-05", "hydropower_unit", {"ugb_temperature": 80.1}),
 ("hy-06", "hydropower_unit", {"ugb_temperature": 200}),                # out of range
 ("hy-07", "hydropower_unit", {"thrust_pad_temperature": 75}),
 ("hy-08", "hydropower_unit", {"thrust_pad_temperature": 75.5}),
 ("hy-09", "hydropower_unit", {"thrust_pad_temperature": 84.9}),
 ("hy-10", "hydropower_unit", {"thrust_pad_temperature": 85}),
 ("hy-11", "hydropower_unit", {"thrust_pad_temperature": "nan", "ugb_temperature": 71}),
 ("hy-12", "hydropower_unit", {"thrust_oil_temperature": 60}),
 ("hy-13", "hydropower_unit", {"thrust_oil_temperature": 60.1}),
 ("hy-14", "hydropower_unit", {"thrust_oil_temperature": 45, "thrust_pad_temperature": 70}),   # alias nesting
 ("hy-15", "hydropower_unit", {"tgb_temperature": 63}),                 # history: between the old and new alarm
 ("hy-16", "hydropower_unit", {"tgb_temperature": 65}),
 ("hy-17", "hydropower_unit", {"tgb_temperature": 65.1}),
 ("hy-18", "hydropower_unit", {"tgb_temperature": 74.9}),
 ("hy-19", "hydropower_unit", {"tgb_temperature": 75}),                 # "reaches 75 °C"
 ("hy-20", "hydropower_unit", {"governor_oil_pressure": 565.65}),       # 39 bar: normal (descriptive)
 ("hy-21", "hydropower_unit", {"governor_oil_pressure": 536.65}),
 ("hy-22", "hydropower_unit", {"governor_oil_pressure": 536.63}),
 ("hy-23", "hydropower_unit", {"governor_oil_pressure": 522.14}),
 ("hy-24", "hydropower_unit", {"governor_oil_pressure": 522.13}),
 ("hy-25", "hydropower_unit", {"governor_oil_pressure": 464.13}),
 ("hy-26", "hydropower_unit", {"governor_oil_pressure": 464.11}),
 ("hy-27", "hydropower_unit", {"governor_oil_pressure": 39}),           # a bar-sized reading: 39 psi is very low
 ("hy-28", "hydropower_unit", {"unit_speed": 100, "wicket_gate_opening": 12}),   # procedure values
 ("hy-29", "hydropower_unit", {"unit_speed": 114.9}),
 ("hy-30", "hydropower_unit", {"unit_speed": 115}),
 ("hy-31", "hydropower_unit", {"unit_speed": 132}),                     # history: load rejection test
 ("hy-32", "hydropower_unit", {"unit_speed": 144.9}),
 ("hy-33", "hydropower_unit", {"unit_speed": 145}),
 ("hy-34", "hydropower_unit", {"unit_speed": 20}),
 ("hy-35", "hydropower_unit", {"unit_speed": 19.9}),
 ("hy-36", "hydropower_unit", {"unit_speed": 300}),                     # out of range
 ("hy-37", "hydropower_unit", {"brake_air_pressure": 600}),
 ("hy-38", "hydropower_unit", {"brake_air_pressure": 599}),
 ("hy-39", "hydropower_unit", {"brake_air_pressure": 6}),               # a bar-sized reading: 6 kPa
 ("hy-40", "hydropower_unit", {"stator_winding_temperature": 248}),
 ("hy-41", "hydropower_unit", {"stator_winding_temperature": 248.1}),
 ("hy-42", "hydropower_unit", {"stator_winding_temperature": 266}),
 ("hy-43", "hydropower_unit", {"stator_winding_temperature": 266.1}),
 ("hy-44", "hydropower_unit", {"stator_winding_temperature": 125}),     # a °C-sized reading: 125 °F is cool
 ("hy-45", "hydropower_unit", {"generator_output": 64}),
 ("hy-46", "hydropower_unit", {"generator_output": 64.1}),
 ("hy-47", "hydropower_unit", {"generator_output": 5}),                 # "not more than 5 MW per minute" (procedure)
 ("hy-48", "hydropower_unit", {"generator_output": -1.5}),
 ("hy-49", "hydropower_unit", {"generator_output": -1.6}),
 ("hy-50", "hydropower_unit", {"headwater_level": 431.5}),              # full supply level (descriptive)
 ("hy-51", "hydropower_unit", {"headwater_level": 406.5}),
 ("hy-52", "hydropower_unit", {"headwater_level": 406.49}),
 ("hy-53", "hydropower_unit", {"headwater_level": 405}),
 ("hy-54", "hydropower_unit", {"headwater_level": 404.99}),
 ("hy-55", "hydropower_unit", {"headwater_level": 404}),
 ("hy-56", "hydropower_unit", {"headwater_level": 403.99, "penstock_pressure": "nan"}),
 ("hy-57", "hydropower_unit", {"tailwater_level": 290}),                # normal variation (descriptive)
 ("hy-58", "hydropower_unit", {"tailwater_level": 298}),
 ("hy-59", "hydropower_unit", {"tailwater_level": 298.01}),
 ("hy-60", "hydropower_unit", {"penstock_pressure": 12.7}),             # static pressure (descriptive)
 ("hy-61", "hydropower_unit", {"penstock_pressure": 18.5}),
 ("hy-62", "hydropower_unit", {"penstock_pressure": 18.51}),
 ("hy-63", "hydropower_unit", {"penstock_pressure": 5.9, "wicket_gate_opening": 10}),
 ("hy-64", "hydropower_unit", {"penstock_pressure": 5.9, "wicket_gate_opening": 10.1}),
 ("hy-65", "hydropower_unit", {"penstock_pressure": 6, "wicket_gate_opening": 50}),
 ("hy-66", "hydropower_unit", {"penstock_pressure": 5.9}),              # with-parameter absent
 ("hy-67", "hydropower_unit", {"penstock_pressure": 4, "wicket_gate_opening": 50, "headwater_level": 420}),
 ("hy-68", "hydropower_unit", {"penstock_pressure": 3.9}),              # or: headwater absent
 ("hy-69", "hydropower_unit", {"penstock_pressure": 1.85, "wicket_gate_opening": 50}),   # an MPa-sized reading
 ("hy-70", "hydropower_unit", {"wicket_gate_opening": 30}),             # rough zone (descriptive)
 ("hy-71", "hydropower_unit", {"draft_tube_pressure": -0.45, "wicket_gate_opening": 40}),
 ("hy-72", "hydropower_unit", {"draft_tube_pressure": -0.46, "wicket_gate_opening": 40}),
 ("hy-73", "hydropower_unit", {"draft_tube_pressure": -0.46, "wicket_gate_opening": 70}),
 ("hy-74", "hydropower_unit", {"draft_tube_pressure": -0.46, "wicket_gate_opening": 70.1}),
 ("hy-75", "hydropower_unit", {"draft_tube_pressure": -0.46}),          # unless-parameter absent
 ("hy-76", "hydropower_unit", {"draft_tube_pressure": -0.6, "wicket_gate_opening": "nan"}),
 ("hy-77", "hydropower_unit", {"draft_tube_pressure": -45, "wicket_gate_opening": 40}),  # a kPa-sized reading: out of range
 ("hy-78", "hydropower_unit", {"cooling_water_flow": 420}),             # typical (descriptive)
 ("hy-79", "hydropower_unit", {"cooling_water_flow": 250.1}),
 ("hy-80", "hydropower_unit", {"cooling_water_flow": 250}),
 ("hy-81", "hydropower_unit", {"cooling_water_flow": 190}),             # history: old low-low setting
 ("hy-82", "hydropower_unit", {"cooling_water_flow": 170}),             # duration rule: never in a query
 ("hy-83", "hydropower_unit", {"shaft_vibration": 80}),                 # typical (descriptive)
 ("hy-84", "hydropower_unit", {"shaft_vibration": 200}),
 ("hy-85", "hydropower_unit", {"shaft_vibration": 201}),
 ("hy-86", "hydropower_unit", {"shaft_vibration": 300}),
 ("hy-87", "hydropower_unit", {"shaft_vibration": 301}),
 ("hy-88", "hydropower_unit", {"ugb_temperature": 55, "thrust_pad_temperature": 63, "thrust_oil_temperature": 45,
                               "tgb_temperature": 50, "stator_winding_temperature": 185, "unit_speed": 100,
                               "penstock_pressure": 11.8, "wicket_gate_opening": 85, "headwater_level": 425,
                               "tailwater_level": 290.5, "draft_tube_pressure": -0.2, "cooling_water_flow": 420,
                               "governor_oil_pressure": 565.65, "brake_air_pressure": 700, "shaft_vibration": 80,
                               "generator_output": 60}),   # all normal
 # mri_system (helium vessel pressure in mbar: 1.0/4.0/5.5 psi = 68.94757/275.79029/379.21165 mbar; magnet room in
 #   degF: 18/22/24 °C = 64.4/71.6/75.2 °F)
 ("mr-01", "mri_system", {"helium_level": 72}),                         # typical (descriptive)
 ("mr-02", "mri_system", {"helium_level": 55}),                         # history: old refill request
 ("mr-03", "mri_system", {"helium_level": 50.1}),
 ("mr-04", "mri_system", {"helium_level": 50}),
 ("mr-05", "mri_system", {"helium_level": 30}),
 ("mr-06", "mri_system", {"helium_level": 29.9}),
 ("mr-07", "mri_system", {"helium_level": 120}),                        # out of range
 ("mr-08", "mri_system", {"helium_level": "nan"}),
 ("mr-09", "mri_system", {"helium_vessel_pressure": 150}),
 ("mr-10", "mri_system", {"helium_vessel_pressure": 68.95}),
 ("mr-11", "mri_system", {"helium_vessel_pressure": 68.94}),
 ("mr-12", "mri_system", {"helium_vessel_pressure": 275.78}),
 ("mr-13", "mri_system", {"helium_vessel_pressure": 275.8}),
 ("mr-14", "mri_system", {"helium_vessel_pressure": 379.21}),
 ("mr-15", "mri_system", {"helium_vessel_pressure": 379.22}),
 ("mr-16", "mri_system", {"helium_vessel_pressure": 4}),                # a psi-sized reading: 4 mbar is too low
 ("mr-17", "mri_system", {"helium_vessel_pressure": -50}),
 ("mr-18", "mri_system", {"helium_vessel_pressure": 2000}),             # out of range
 ("mr-19", "mri_system", {"cold_head_temperature": 4.2}),               # typical (descriptive)
 ("mr-20", "mri_system", {"cold_head_temperature": 4.8}),               # duration rule: never in a query
 ("mr-21", "mri_system", {"cold_head_temperature": 5.99}),
 ("mr-22", "mri_system", {"cold_head_temperature": 6}),
 ("mr-23", "mri_system", {"oxygen_concentration": 20.9}),
 ("mr-24", "mri_system", {"oxygen_concentration": 19.6}),
 ("mr-25", "mri_system", {"oxygen_concentration": 19.5}),
 ("mr-26", "mri_system", {"oxygen_concentration": 19.4}),
 ("mr-27", "mri_system", {"oxygen_concentration": 18}),
 ("mr-28", "mri_system", {"oxygen_concentration": 17.9}),
 ("mr-29", "mri_system", {"oxygen_concentration": "nan"}),
 ("mr-30", "mri_system", {"oxygen_concentration": 150}),                # out of range
 ("mr-31", "mri_system", {"magnet_room_temperature": 68}),
 ("mr-32", "mri_system", {"magnet_room_temperature": 64.4}),
 ("mr-33", "mri_system", {"magnet_room_temperature": 64.3}),
 ("mr-34", "mri_system", {"magnet_room_temperature": 71.6}),
 ("mr-35", "mri_system", {"magnet_room_temperature": 71.7}),
 ("mr-36", "mri_system", {"magnet_room_temperature": 75.2}),
 ("mr-37", "mri_system", {"magnet_room_temperature": 75.3}),
 ("mr-38", "mri_system", {"magnet_room_temperature": 21}),              # a °C-sized reading: out of the °F range
 ("mr-39", "mri_system", {"magnet_room_temperature": 40}),              # a °C-sized reading: 40 °F is cold
 ("mr-40", "mri_system", {"relative_humidity": 40}),
 ("mr-41", "mri_system", {"relative_humidity": 39.9}),
 ("mr-42", "mri_system", {"relative_humidity": 60}),
 ("mr-43", "mri_system", {"relative_humidity": 60.1}),
 ("mr-44", "mri_system", {"equipment_room_temperature": 30}),
 ("mr-45", "mri_system", {"equipment_room_temperature": 30.1, "chilled_water_inlet_temperature": "nan"}),
 ("mr-46", "mri_system", {"chilled_water_inlet_temperature": 10, "chilled_water_flow": 80, "equipment_room_temperature": 24}),
 ("mr-47", "mri_system", {"chilled_water_inlet_temperature": 14}),
 ("mr-48", "mri_system", {"chilled_water_inlet_temperature": 14.1}),
 ("mr-49", "mri_system", {"chilled_water_inlet_temperature": 18}),
 ("mr-50", "mri_system", {"chilled_water_inlet_temperature": 18.1}),    # or: equipment room absent
 ("mr-51", "mri_system", {"chilled_water_flow": 40}),
 ("mr-52", "mri_system", {"chilled_water_flow": 39.9}),
 ("mr-53", "mri_system", {"gradient_coil_temperature": 60}),
 ("mr-54", "mri_system", {"gradient_coil_temperature": 60.1}),
 ("mr-55", "mri_system", {"gradient_coil_temperature": 69.9}),
 ("mr-56", "mri_system", {"gradient_coil_temperature": 70}),
 ("mr-57", "mri_system", {"wb_sar": 1.5, "dbdt": 60}),                  # operating-mode definition (descriptive)
 ("mr-58", "mri_system", {"wb_sar": 2}),
 ("mr-59", "mri_system", {"wb_sar": 2.1}),
 ("mr-60", "mri_system", {"wb_sar": 4}),
 ("mr-61", "mri_system", {"wb_sar": 4.1}),
 ("mr-62", "mri_system", {"head_sar": 3.2, "wb_sar": 1.0}),
 ("mr-63", "mri_system", {"head_sar": 3.3, "wb_sar": 1.0}),
 ("mr-64", "mri_system", {"dbdt": 80}),
 ("mr-65", "mri_system", {"dbdt": 80.5}),
 ("mr-66", "mri_system", {"dbdt": 100}),
 ("mr-67", "mri_system", {"dbdt": 101}),
 ("mr-68", "mri_system", {"dbdt": 250}),                                # out of range
 ("mr-69", "mri_system", {"patient_weight": 250}),
 ("mr-70", "mri_system", {"patient_weight": 251}),
 ("mr-71", "mri_system", {"helium_level": 72, "helium_vessel_pressure": 150, "cold_head_temperature": 4.2,
                          "oxygen_concentration": 20.9, "magnet_room_temperature": 68, "relative_humidity": 50,
                          "equipment_room_temperature": 24, "chilled_water_inlet_temperature": 10,
                          "chilled_water_flow": 80, "gradient_coil_temperature": 35, "wb_sar": 1.5, "head_sar": 1.2,
                          "dbdt": 60, "patient_weight": 80}),   # all normal
 # freeze_dryer (chamber pressure and pressure rises in Pa: 0.070/0.090/0.150/0.300/0.100 mbar = 7/9/15/30/10 Pa,
 #   20 µbar = 2 Pa, 0.030 mbar = 3 Pa; condenser in K: -60/-50/-40 °C = 213.15/223.15/233.15 K; product in degF:
 #   -33/-31/-34/-40 °C = -27.4/-23.8/-29.2/-40 °F)
 ("fd-01", "freeze_dryer", {"chamber_pressure": 8}),                    # set point (recipe table)
 ("fd-02", "freeze_dryer", {"chamber_pressure": 7}),
 ("fd-03", "freeze_dryer", {"chamber_pressure": 6.99}),
 ("fd-04", "freeze_dryer", {"chamber_pressure": 9}),
 ("fd-05", "freeze_dryer", {"chamber_pressure": 9.01}),
 ("fd-06", "freeze_dryer", {"chamber_pressure": 6}),                    # history: version 2 set point
 ("fd-07", "freeze_dryer", {"chamber_pressure": 15.5}),                 # duration rule: never in a query
 ("fd-08", "freeze_dryer", {"chamber_pressure": 29.99}),
 ("fd-09", "freeze_dryer", {"chamber_pressure": 30}),
 ("fd-10", "freeze_dryer", {"chamber_pressure": 0.08}),                 # an mbar-sized reading: 0.08 Pa
 ("fd-11", "freeze_dryer", {"chamber_pressure": 200000}),               # out of range
 ("fd-12", "freeze_dryer", {"chamber_pressure": "nan"}),
 ("fd-13", "freeze_dryer", {"product_temperature": -32.8, "chamber_pressure": 8}),   # typical -36 °C (descriptive)
 ("fd-14", "freeze_dryer", {"product_temperature": -27.4}),
 ("fd-15", "freeze_dryer", {"product_temperature": -27.3}),
 ("fd-16", "freeze_dryer", {"product_temperature": -23.8}),
 ("fd-17", "freeze_dryer", {"product_temperature": -23.7}),
 ("fd-18", "freeze_dryer", {"product_temperature": -29.2, "chamber_pressure": 10.5}),
 ("fd-19", "freeze_dryer", {"product_temperature": -29.1, "chamber_pressure": 10.5}),
 ("fd-20", "freeze_dryer", {"product_temperature": -29.1, "chamber_pressure": 10}),
 ("fd-21", "freeze_dryer", {"product_temperature": -29.1}),             # while-parameter absent
 ("fd-22", "freeze_dryer", {"product_temperature": -31, "chamber_pressure": 8}),   # a °C-sized reading: -35 °C
 ("fd-23", "freeze_dryer", {"product_temperature": "nan", "chamber_pressure": 12}),
 ("fd-24", "freeze_dryer", {"condenser_temperature": 213.15}),
 ("fd-25", "freeze_dryer", {"condenser_temperature": 213.16}),
 ("fd-26", "freeze_dryer", {"condenser_temperature": 223.15, "product_temperature": -35}),
 ("fd-27", "freeze_dryer", {"condenser_temperature": 223.16, "product_temperature": -35}),
 ("fd-28", "freeze_dryer", {"condenser_temperature": 223.16, "product_temperature": -40}),
 ("fd-29", "freeze_dryer", {"condenser_temperature": 223.16, "product_temperature": -40.1}),
 ("fd-30", "freeze_dryer", {"condenser_temperature": 223.16}),           # unless-parameter absent
 ("fd-31", "freeze_dryer", {"condenser_temperature": 225, "product_temperature": "nan"}),
 ("fd-32", "freeze_dryer", {"condenser_temperature": 233.15, "product_temperature": -35}),
 ("fd-33", "freeze_dryer", {"condenser_temperature": 233.16, "product_temperature": -35}),
 ("fd-34", "freeze_dryer", {"condenser_temperature": -50}),             # a °C-sized reading: out of range
 ("fd-35", "freeze_dryer", {"condenser_temperature": 200}),
 ("fd-36", "freeze_dryer", {"htf_flow": 60}),
 ("fd-37", "freeze_dryer", {"htf_flow": 59.9}),
 ("fd-38", "freeze_dryer", {"htf_flow": 20}),
 ("fd-39", "freeze_dryer", {"htf_flow": 19.9}),
 ("fd-40", "freeze_dryer", {"htf_flow": 19.9, "condenser_temperature": "nan"}),
 ("fd-41", "freeze_dryer", {"htf_flow": 150, "condenser_temperature": 240}),
 ("fd-42", "freeze_dryer", {"shelf_inlet_temperature": -15}),           # set point (recipe table)
 ("fd-43", "freeze_dryer", {"shelf_inlet_temperature": 35}),
 ("fd-44", "freeze_dryer", {"shelf_inlet_temperature": 35.1}),
 ("fd-45", "freeze_dryer", {"shelf_inlet_temperature": 42}),
 ("fd-46", "freeze_dryer", {"shelf_inlet_temperature": 42.1}),
 ("fd-47", "freeze_dryer", {"shelf_inlet_temperature": -55}),
 ("fd-48", "freeze_dryer", {"shelf_inlet_temperature": -55.1}),
 ("fd-49", "freeze_dryer", {"shelf_inlet_temperature": 90}),            # out of range
 ("fd-50", "freeze_dryer", {"pressure_rise": 0.8}),                     # typical (descriptive)
 ("fd-51", "freeze_dryer", {"pressure_rise": 2}),
 ("fd-52", "freeze_dryer", {"pressure_rise": 2.01}),
 ("fd-53", "freeze_dryer", {"pressure_rise": 20}),                      # a µbar-sized reading: 20 Pa
 ("fd-54", "freeze_dryer", {"leak_test_pressure_rise": 3}),
 ("fd-55", "freeze_dryer", {"leak_test_pressure_rise": 3.01}),
 ("fd-56", "freeze_dryer", {"leak_test_pressure_rise": 0.03}),          # an mbar-sized reading
 ("fd-57", "freeze_dryer", {"leak_test_pressure_rise": 2.5, "pressure_rise": 0.5}),   # alias nesting
 ("fd-58", "freeze_dryer", {"pressure_rise": 2.5, "leak_test_pressure_rise": 0.5}),
 ("fd-59", "freeze_dryer", {"residual_moisture": 1.0}),
 ("fd-60", "freeze_dryer", {"residual_moisture": 1.01}),
 ("fd-61", "freeze_dryer", {"residual_moisture": 5}),                   # "each of the 5 sampled vials"
 ("fd-62", "freeze_dryer", {"shelf_inlet_temperature": -15, "chamber_pressure": 8, "condenser_temperature": 200,
                            "product_temperature": -32.8, "pressure_rise": 0.8, "leak_test_pressure_rise": 1,
                            "residual_moisture": 0.6, "htf_flow": 150}),   # all normal
 # ecmo_circuit (pre-oxygenator and venous pressures in kPa: 400/-100/-80 mmHg = 53.32895/-13.33224/-10.66579 kPa;
 # blood temperature in degF: 39.0/35.0 °C = 102.2/95 °F; remaining battery time in s: 10/5/30 min = 600/300/1800 s)
 ("ecmo-01", "ecmo_circuit", {"bubble_size": 5}),
 ("ecmo-02", "ecmo_circuit", {"bubble_size": 4.99}),
 ("ecmo-03", "ecmo_circuit", {"bubble_size": 1.0}),                           # "detects air bubbles from … 0.5 mm"
 ("ecmo-04", "ecmo_circuit", {"bubble_size": 10}),                            # history: "only at a bubble size of 10 mm"
 ("ecmo-05", "ecmo_circuit", {"pre_oxygenator_pressure": 53.335}),
 ("ecmo-06", "ecmo_circuit", {"pre_oxygenator_pressure": 53.325}),
 ("ecmo-07", "ecmo_circuit", {"pre_oxygenator_pressure": 450}),               # an mmHg-sized reading: out of range
 ("ecmo-08", "ecmo_circuit", {"blood_temperature": 102.2}),
 ("ecmo-09", "ecmo_circuit", {"blood_temperature": 102.21}),
 ("ecmo-10", "ecmo_circuit", {"blood_temperature": 95}),
 ("ecmo-11", "ecmo_circuit", {"blood_temperature": 94.99}),
 ("ecmo-12", "ecmo_circuit", {"blood_temperature": 37}),                      # a °C-sized reading: out of range
 ("ecmo-13", "ecmo_circuit", {"remaining_battery_time": 5400, "pump_speed": 3000}),   # descriptive 90 min at 3,000 rpm
 ("ecmo-14", "ecmo_circuit", {"remaining_battery_time": 1800}),
 ("ecmo-15", "ecmo_circuit", {"remaining_battery_time": 1800.5}),
 ("ecmo-16", "ecmo_circuit", {"remaining_battery_time": 600}),
 ("ecmo-17", "ecmo_circuit", {"remaining_battery_time": 300}),
 ("ecmo-18", "ecmo_circuit", {"remaining_battery_time": 299}),
 ("ecmo-19", "ecmo_circuit", {"remaining_battery_time": 10}),                 # a min-sized reading: 10 s
 ("ecmo-20", "ecmo_circuit", {"venous_pressure": -5.33, "pump_speed": 3400}),  # typical -40 mmHg (descriptive)
 ("ecmo-21", "ecmo_circuit", {"venous_pressure": -13.335, "pump_speed": 3000}),
 ("ecmo-22", "ecmo_circuit", {"venous_pressure": -13.33, "pump_speed": 4200}),
 ("ecmo-23", "ecmo_circuit", {"venous_pressure": -13.34, "pump_speed": 4200}),
 ("ecmo-24", "ecmo_circuit", {"venous_pressure": -10.67, "pump_speed": 4000}),
 ("ecmo-25", "ecmo_circuit", {"venous_pressure": -10.66, "pump_speed": 3000}),
 ("ecmo-26", "ecmo_circuit", {"venous_pressure": -10.67}),                     # except-parameter absent
 ("ecmo-27", "ecmo_circuit", {"venous_pressure": -10.67, "pump_speed": "nan"}),
 ("ecmo-28", "ecmo_circuit", {"venous_pressure": -16.0, "pump_speed": 3000}),  # history: -120 mmHg
 ("ecmo-29", "ecmo_circuit", {"venous_pressure": -100}),                       # an mmHg-sized reading: out of range
 ("ecmo-30", "ecmo_circuit", {"post_oxygenator_pressure": 350}),
 ("ecmo-31", "ecmo_circuit", {"post_oxygenator_pressure": 350.5}),
 ("ecmo-32", "ecmo_circuit", {"post_oxygenator_pressure": 380}),
 ("ecmo-33", "ecmo_circuit", {"post_oxygenator_pressure": 381}),
 ("ecmo-34", "ecmo_circuit", {"post_oxygenator_pressure": 99.5}),
 ("ecmo-35", "ecmo_circuit", {"delta_p": 20, "blood_flow": 4.0, "pump_speed": 3400}),   # typical values (descriptive)
 ("ecmo-36", "ecmo_circuit", {"delta_p": 60, "blood_flow": 4.0}),
 ("ecmo-37", "ecmo_circuit", {"delta_p": 60.5, "blood_flow": 4.0}),
 ("ecmo-38", "ecmo_circuit", {"delta_p": 100.5, "blood_flow": 3.0}),
 ("ecmo-39", "ecmo_circuit", {"delta_p": 100, "blood_flow": 2.0}),
 ("ecmo-40", "ecmo_circuit", {"delta_p": 101}),                                # while-parameter absent
 ("ecmo-41", "ecmo_circuit", {"svo2": 75}),
 ("ecmo-42", "ecmo_circuit", {"svo2": 64, "haemoglobin": 100}),
 ("ecmo-43", "ecmo_circuit", {"svo2": 64}),                                    # unless-parameter absent
 ("ecmo-44", "ecmo_circuit", {"svo2": 64, "haemoglobin": "nan"}),
 ("ecmo-45", "ecmo_circuit", {"svo2": 64, "haemoglobin": 80}),
 ("ecmo-46", "ecmo_circuit", {"svo2": 64, "haemoglobin": 79.9}),
 ("ecmo-47", "ecmo_circuit", {"svo2": 54.9, "haemoglobin": 100}),
 ("ecmo-48", "ecmo_circuit", {"svo2": 55, "haemoglobin": 100}),
 ("ecmo-49", "ecmo_circuit", {"svo2": 70, "blood_flow": 2.4, "pump_speed": 3500}),
 ("ecmo-50", "ecmo_circuit", {"svo2": 70, "blood_flow": 2.4, "pump_speed": 3490}),
 ("ecmo-51", "ecmo_circuit", {"svo2": "nan", "blood_flow": 2.0, "pump_speed": 3600}),
 ("ecmo-52", "ecmo_circuit", {"svo2": 54, "blood_flow": 2.0}),
 ("ecmo-53", "ecmo_circuit", {"plasma_free_haemoglobin": 0.5, "haemoglobin": 100}),
 ("ecmo-54", "ecmo_circuit", {"plasma_free_haemoglobin": 0.51, "haemoglobin": 100}),
 ("ecmo-55", "ecmo_circuit", {"plasma_free_haemoglobin": 0.6}),                # alias nesting
 ("ecmo-56", "ecmo_circuit", {"haemoglobin": 0.6}),                            # alias nesting
 ("ecmo-57", "ecmo_circuit", {"sweep_gas_flow": 0.4, "blood_flow": 1.5}),
 ("ecmo-58", "ecmo_circuit", {"sweep_gas_flow": 0.5, "blood_flow": 4.0}),
 ("ecmo-59", "ecmo_circuit", {"sweep_gas_flow": 0.4, "blood_flow": 1.49}),
 ("ecmo-60", "ecmo_circuit", {"sweep_gas_flow": 2, "blood_flow": 1.5, "pump_speed": 1800}),   # weaning procedure
 ("ecmo-61", "ecmo_circuit", {"blood_flow": 0.9, "pump_speed": 2001}),
 ("ecmo-62", "ecmo_circuit", {"blood_flow": 0.9, "pump_speed": 2000}),
 ("ecmo-63", "ecmo_circuit", {"blood_flow": -0.2, "pump_speed": 1500}),
 ("ecmo-64", "ecmo_circuit", {"blood_flow": -0.1}),
 ("ecmo-65", "ecmo_circuit", {"blood_flow": -0.11, "pump_speed": 2500}),
 ("ecmo-66", "ecmo_circuit", {"pump_speed": 4500}),
 ("ecmo-67", "ecmo_circuit", {"pump_speed": 5000, "blood_flow": 5.0}),         # "can be set from 0 to 5,000 rpm"
 ("ecmo-68", "ecmo_circuit", {"pump_speed": 3400, "blood_flow": 4.2, "pre_oxygenator_pressure": 33.3,
                              "post_oxygenator_pressure": 220, "delta_p": 22, "venous_pressure": -6.0, "svo2": 74,
                              "haemoglobin": 105, "plasma_free_haemoglobin": 0.1, "blood_temperature": 98.6,
                              "sweep_gas_flow": 4.0, "remaining_battery_time": 5400, "bubble_size": 0}),   # all normal
 # steam_steriliser (chamber temperature in degF: 134/138/140/80 °C = 273.2/280.4/284/176 °F; chamber pressure in kPa:
 # 1,100/3,000/3,300 mbar = 110/300/330 kPa; door seal in kPa; jacket in MPa; holding time in s; effluent in K)
 ("ss-01", "steam_steriliser", {"holding_time": 300}),                         # program P2 (descriptive)
 ("ss-02", "steam_steriliser", {"holding_time": 1200}),                        # program P4 (descriptive)
 ("ss-03", "steam_steriliser", {"holding_time": 180}),
 ("ss-04", "steam_steriliser", {"holding_time": 179.9}),
 ("ss-05", "steam_steriliser", {"holding_time": 210}),                         # "3.5 min holding time" (Bowie-Dick)
 ("ss-06", "steam_steriliser", {"holding_time": 3}),                           # a min-sized reading: 3 s
 ("ss-07", "steam_steriliser", {"chamber_pressure": 50}),                      # conditioning 70 to 1,500 mbar
 ("ss-08", "steam_steriliser", {"chamber_pressure": 5}),                       # end of drying, typically 40-60 mbar
 ("ss-09", "steam_steriliser", {"chamber_pressure": 110}),
 ("ss-10", "steam_steriliser", {"chamber_pressure": 110.1}),
 ("ss-11", "steam_steriliser", {"chamber_temperature": 176}),
 ("ss-12", "steam_steriliser", {"chamber_temperature": 176.1}),
 ("ss-13", "steam_steriliser", {"chamber_temperature": 273.2, "chamber_pressure": 304}),   # saturated steam (descriptive)
 ("ss-14", "steam_steriliser", {"chamber_pressure": 330}),
 ("ss-15", "steam_steriliser", {"chamber_pressure": 329.9}),
 ("ss-16", "steam_steriliser", {"chamber_pressure": 3300}),                    # an mbar-sized reading: out of range
 ("ss-17", "steam_steriliser", {"chamber_temperature": 284}),
 ("ss-18", "steam_steriliser", {"chamber_temperature": 284.1}),
 ("ss-19", "steam_steriliser", {"chamber_temperature": 280.5, "chamber_pressure": 299}),
 ("ss-20", "steam_steriliser", {"chamber_temperature": 280.4, "chamber_pressure": 299}),
 ("ss-21", "steam_steriliser", {"chamber_temperature": 280.5, "chamber_pressure": 300}),
 ("ss-22", "steam_steriliser", {"chamber_temperature": 280.5}),                # while-parameter absent
 ("ss-23", "steam_steriliser", {"chamber_pressure": 150, "chamber_temperature": "nan"}),
 ("ss-24", "steam_steriliser", {"chamber_temperature": 134}),                  # a °C-sized reading: 134 °F
 ("ss-25", "steam_steriliser", {"door_seal_pressure": 250}),
 ("ss-26", "steam_steriliser", {"door_seal_pressure": 249.9}),
 ("ss-27", "steam_steriliser", {"door_seal_pressure": 200}),
 ("ss-28", "steam_steriliser", {"door_seal_pressure": 2.5}),                   # a bar-sized reading: 2.5 kPa
 ("ss-29", "steam_steriliser", {"jacket_pressure": 0.32}),
 ("ss-30", "steam_steriliser", {"jacket_pressure": 0.319}),
 ("ss-31", "steam_steriliser", {"jacket_pressure": 0.35}),                     # safety valve opens at 3.5 bar
 ("ss-32", "steam_steriliser", {"jacket_pressure": 3.2}),                      # a bar-sized reading: out of range
 ("ss-33", "steam_steriliser", {"effluent_temperature": 333.15}),
 ("ss-34", "steam_steriliser", {"effluent_temperature": 333.16}),
 ("ss-35", "steam_steriliser", {"effluent_temperature": 60}),                  # a °C-sized reading: out of range
 ("ss-36", "steam_steriliser", {"test_pack_temperature_difference": 2.0}),
 ("ss-37", "steam_steriliser", {"test_pack_temperature_difference": 2.1}),
 ("ss-38", "steam_steriliser", {"pressure_rise": 0.5}),                        # procedure: "measured over 10 min"
 ("ss-39", "steam_steriliser", {"pressure_rise": 1.3}),
 ("ss-40", "steam_steriliser", {"pressure_rise": 1.31}),
 ("ss-41", "steam_steriliser", {"pressure_rise": 13}),                         # an mbar-sized reading: 13 kPa
 ("ss-42", "steam_steriliser", {"air_detector_reading": 29.9}),
 ("ss-43", "steam_steriliser", {"air_detector_reading": 30}),
 ("ss-44", "steam_steriliser", {"air_detector_reading": 35}),                  # history: 40 % -> 30 %
 ("ss-45", "steam_steriliser", {"feed_water_conductivity": 2}),                # typical 1 to 3 µS/cm
 ("ss-46", "steam_steriliser", {"feed_water_conductivity": 5}),
 ("ss-47", "steam_steriliser", {"feed_water_conductivity": 5.1}),
 ("ss-48", "steam_steriliser", {"feed_water_conductivity": 15}),
 ("ss-49", "steam_steriliser", {"feed_water_conductivity": 15.5}),
 ("ss-50", "steam_steriliser", {"non_condensable_gas_content": 3.5, "superheat": 25, "dryness_value": 0.95}),
 ("ss-51", "steam_steriliser", {"non_condensable_gas_content": 3.6}),
 ("ss-52", "steam_steriliser", {"superheat": 25.5}),
 ("ss-53", "steam_steriliser", {"dryness_value": 0.94}),
 ("ss-54", "steam_steriliser", {"equilibration_time": 15}),
 ("ss-55", "steam_steriliser", {"equilibration_time": 16}),
 ("ss-56", "steam_steriliser", {"load_temperature": 134}),
 ("ss-57", "steam_steriliser", {"load_temperature": 133.9}),
 ("ss-58", "steam_steriliser", {"load_temperature": 137}),
 ("ss-59", "steam_steriliser", {"load_temperature": 137.1}),
 ("ss-60", "steam_steriliser", {"f0": 15}),
 ("ss-61", "steam_steriliser", {"f0": 14.9}),                                  # unless-parameter absent
 ("ss-62", "steam_steriliser", {"f0": 14.9, "holding_time": 899}),
 ("ss-63", "steam_steriliser", {"f0": 14.9, "holding_time": 900}),
 ("ss-64", "steam_steriliser", {"f0": 14.9, "holding_time": "nan"}),
 ("ss-65", "steam_steriliser", {"f0": 14.9, "holding_time": 15}),               # a min-sized reading: 15 s
 ("ss-66", "steam_steriliser", {"chamber_temperature": 70, "chamber_pressure": 101.3, "jacket_pressure": 0.3,
                                "door_seal_pressure": 300, "feed_water_conductivity": 2, "air_detector_reading": 5,
                                "effluent_temperature": 313.15, "test_pack_temperature_difference": 0.5}),   # all normal
 # compressor_station (suction in MPa: 42/38 barg = 4.2/3.8; discharge in bar; discharge temperature in degF: 150/165 °C
 # = 302/329 °F; lube oil pressure in kPa: 1.8/1.5/1.2 barg = 180/150/120; lube oil temperature in K: 25/40/55/70 °C =
 # 298.15/313.15/328.15/343.15; seal gas DP in kPa: 500/800 mbar = 50/80)
 ("cs-01", "compressor_station", {"suction_pressure": 5.0, "discharge_pressure": 75}),   # normal ranges (descriptive)
 ("cs-02", "compressor_station", {"suction_pressure": 4.2}),
 ("cs-03", "compressor_station", {"suction_pressure": 4.19}),
 ("cs-04", "compressor_station", {"suction_pressure": 3.8}),
 ("cs-05", "compressor_station", {"suction_pressure": 3.79}),
 ("cs-06", "compressor_station", {"suction_pressure": 45}),                    # a barg-sized reading: out of range
 ("cs-07", "compressor_station", {"discharge_pressure": 82}),
 ("cs-08", "compressor_station", {"discharge_pressure": 82.1}),
 ("cs-09", "compressor_station", {"discharge_pressure": 84.1}),
 ("cs-10", "compressor_station", {"discharge_temperature": 257}),              # approx. 125 °C at full load
 ("cs-11", "compressor_station", {"discharge_temperature": 302}),
 ("cs-12", "compressor_station", {"discharge_temperature": 302.1}),
 ("cs-13", "compressor_station", {"discharge_temperature": 323.6}),            # history: 160 °C -> 165 °C (162 °C)
 ("cs-14", "compressor_station", {"discharge_temperature": 329}),
 ("cs-15", "compressor_station", {"discharge_temperature": 165}),              # a °C-sized reading: 165 °F
 ("cs-16", "compressor_station", {"aftercooler_outlet_temperature": 45, "ambient_temperature": 20}),
 ("cs-17", "compressor_station", {"aftercooler_outlet_temperature": 45.5, "ambient_temperature": 20}),
 ("cs-18", "compressor_station", {"aftercooler_outlet_temperature": 45.5, "ambient_temperature": -10}),
 ("cs-19", "compressor_station", {"aftercooler_outlet_temperature": 45.5, "ambient_temperature": -10.5}),
 ("cs-20", "compressor_station", {"aftercooler_outlet_temperature": 46}),       # unless-parameter absent
 ("cs-21", "compressor_station", {"aftercooler_outlet_temperature": 46, "ambient_temperature": "nan"}),
 ("cs-22", "compressor_station", {"aftercooler_outlet_temperature": 50, "ambient_temperature": -20}),
 ("cs-23", "compressor_station", {"surge_margin": 15}),                         # normal operation (descriptive)
 ("cs-24", "compressor_station", {"surge_margin": 10}),
 ("cs-25", "compressor_station", {"surge_margin": 9.9}),
 ("cs-26", "compressor_station", {"surge_margin": 0}),
 ("cs-27", "compressor_station", {"surge_margin": -5}),
 ("cs-28", "compressor_station", {"lube_oil_pressure": 250}),                  # start-up step 1: 2.5 barg
 ("cs-29", "compressor_station", {"lube_oil_pressure": 180}),
 ("cs-30", "compressor_station", {"lube_oil_pressure": 179.9}),
 ("cs-31", "compressor_station", {"lube_oil_pressure": 150}),
 ("cs-32", "compressor_station", {"lube_oil_pressure": 149.9}),
 ("cs-33", "compressor_station", {"lube_oil_pressure": 120}),
 ("cs-34", "compressor_station", {"lube_oil_pressure": 110}),                  # history: 1.0 -> 1.2 barg
 ("cs-35", "compressor_station", {"lube_oil_pressure": 1.2}),                  # a barg-sized reading: 1.2 kPa
 ("cs-36", "compressor_station", {"lube_oil_temperature": 298.15}),
 ("cs-37", "compressor_station", {"lube_oil_temperature": 298.1}),
 ("cs-38", "compressor_station", {"lube_oil_temperature": 313.15}),
 ("cs-39", "compressor_station", {"lube_oil_temperature": 328.2}),
 ("cs-40", "compressor_station", {"lube_oil_temperature": 343.2}),
 ("cs-41", "compressor_station", {"lube_oil_temperature": 45}),                # a °C-sized reading: out of range
 ("cs-42", "compressor_station", {"lube_oil_pressure": 200, "lube_oil_temperature": 298}),
 ("cs-43", "compressor_station", {"lube_oil_pressure": "nan", "lube_oil_temperature": 293.15}),
 ("cs-44", "compressor_station", {"seal_gas_differential_pressure": 100}),     # start-up step 2: at least 1,000 mbar
 ("cs-45", "compressor_station", {"seal_gas_differential_pressure": 80}),
 ("cs-46", "compressor_station", {"seal_gas_differential_pressure": 80.1}),
 ("cs-47", "compressor_station", {"seal_gas_differential_pressure": 45}),      # duration rule: never in a query
 ("cs-48", "compressor_station", {"shaft_vibration": 30}),                     # typical 20 to 35 µm
 ("cs-49", "compressor_station", {"shaft_vibration": 75}),
 ("cs-50", "compressor_station", {"shaft_vibration": 75.1}),
 ("cs-51", "compressor_station", {"shaft_vibration": 100}),
 ("cs-52", "compressor_station", {"shaft_vibration": 100.1}),
 ("cs-53", "compressor_station", {"shaft_vibration": 3}),                      # "filtered to 3 µm"
 ("cs-54", "compressor_station", {"bearing_temperature": 104.9}),
 ("cs-55", "compressor_station", {"bearing_temperature": 105}),
 ("cs-56", "compressor_station", {"bearing_temperature": 115.1}),
 ("cs-57", "compressor_station", {"gas_concentration": 10}),
 ("cs-58", "compressor_station", {"gas_concentration": 10.1}),
 ("cs-59", "compressor_station", {"gas_concentration": 20}),
 ("cs-60", "compressor_station", {"gas_concentration": 40}),
 ("cs-61", "compressor_station", {"gas_concentration": 39.9, "enclosure_temperature": 180}),
 ("cs-62", "compressor_station", {"gas_concentration": 20, "enclosure_temperature": 180.5}),
 ("cs-63", "compressor_station", {"gas_concentration": 19.9, "enclosure_temperature": 190}),
 ("cs-64", "compressor_station", {"gas_concentration": 50}),                   # calibration gas 50 % LEL (descriptive)
 ("cs-65", "compressor_station", {"enclosure_temperature": 200}),
 ("cs-66", "compressor_station", {"enclosure_temperature": 200.5, "gas_concentration": "nan"}),
 ("cs-67", "compressor_station", {"power_turbine_speed": 70}),                 # start-up step 4: 70 %
 ("cs-68", "compressor_station", {"power_turbine_speed": 102}),
 ("cs-69", "compressor_station", {"power_turbine_speed": 102.1}),
 ("cs-70", "compressor_station", {"power_turbine_speed": 105}),
 ("cs-71", "compressor_station", {"suction_pressure": 5.2, "discharge_pressure": 76, "discharge_temperature": 257,
                                  "aftercooler_outlet_temperature": 38, "ambient_temperature": 15, "surge_margin": 15,
                                  "lube_oil_pressure": 250, "lube_oil_temperature": 321.15,
                                  "seal_gas_differential_pressure": 150, "shaft_vibration": 28, "bearing_temperature": 85,
                                  "gas_concentration": 0, "enclosure_temperature": 60, "power_turbine_speed": 95}),  # normal
 # cabin_pressurisation (cabin altitude in m: 8,000/8,800/9,550/10,000/14,000 ft = 2438.4/2682.24/2910.84/3048/4267.2;
 # bleed pressure in kPa: 12/30/57 psi = 82.73709/206.84272/393.00117; duct and pack compressor outlet in degF:
 # 88/230/260 °C = 190.4/446/500 °F; bleed temperature in K: 257/290 °C = 530.15/563.15)
 ("cab-01", "cabin_pressurisation", {"cabin_altitude": 2438.4}),               # "about 8,000 ft" in cruise (descriptive)
 ("cab-02", "cabin_pressurisation", {"cabin_altitude": 2438.5}),
 ("cab-03", "cabin_pressurisation", {"cabin_altitude": 2682.2}),
 ("cab-04", "cabin_pressurisation", {"cabin_altitude": 2682.24}),
 ("cab-05", "cabin_pressurisation", {"cabin_altitude": 2910.84}),
 ("cab-06", "cabin_pressurisation", {"cabin_altitude": 2910.85}),
 ("cab-07", "cabin_pressurisation", {"cabin_altitude": 3048}),
 ("cab-08", "cabin_pressurisation", {"cabin_altitude": 3048.1}),
 ("cab-09", "cabin_pressurisation", {"cabin_altitude": 4267.2}),
 ("cab-10", "cabin_pressurisation", {"cabin_altitude": 4267.3}),
 ("cab-11", "cabin_pressurisation", {"cabin_altitude": 9000}),                 # an ft-sized reading: 9,000 m
 ("cab-12", "cabin_pressurisation", {"cabin_altitude": 12500}),                # out of range
 ("cab-13", "cabin_pressurisation", {"cabin_altitude": 609.6}),                # QRH "WHEN 2 000 FT ABOVE THE LANDING FIELD"
 ("cab-14", "cabin_pressurisation", {"outflow_valve_position": 5, "cabin_altitude": 2911}),
 ("cab-15", "cabin_pressurisation", {"outflow_valve_position": 5.1, "cabin_altitude": 2911}),
 ("cab-16", "cabin_pressurisation", {"outflow_valve_position": 0, "cabin_altitude": 2910.84}),
 ("cab-17", "cabin_pressurisation", {"outflow_valve_position": 3}),            # cabin altitude absent
 ("cab-18", "cabin_pressurisation", {"outflow_valve_position": 15}),           # typically 10 % to 20 % (descriptive)
 ("cab-19", "cabin_pressurisation", {"outflow_valve_position": 90, "cabin_altitude": 2500}),
 ("cab-20", "cabin_pressurisation", {"outflow_valve_position": 90.5, "cabin_altitude": 2500}),
 ("cab-21", "cabin_pressurisation", {"outflow_valve_position": 95, "cabin_altitude": 2438.4}),
 ("cab-22", "cabin_pressurisation", {"cabin_vertical_speed": 3000}),
 ("cab-23", "cabin_pressurisation", {"cabin_vertical_speed": 3000.5}),
 ("cab-24", "cabin_pressurisation", {"cabin_vertical_speed": 3100, "outflow_valve_position": "nan",
                                    "cabin_altitude": "nan"}),
 ("cab-25", "cabin_pressurisation", {"cabin_vertical_speed": 1800}),
 ("cab-26", "cabin_pressurisation", {"cabin_vertical_speed": 1801}),
 ("cab-27", "cabin_pressurisation", {"cabin_vertical_speed": -1800}),
 ("cab-28", "cabin_pressurisation", {"cabin_vertical_speed": -1800.5}),
 ("cab-29", "cabin_pressurisation", {"cabin_vertical_speed": 500}),            # typical climb rate / QRH target
 ("cab-30", "cabin_pressurisation", {"cabin_vertical_speed": -300}),           # typical descent rate / QRH target
 ("cab-31", "cabin_pressurisation", {"differential_pressure": 9.0}),
 ("cab-32", "cabin_pressurisation", {"differential_pressure": 9.05}),
 ("cab-33", "cabin_pressurisation", {"differential_pressure": 8.6}),           # safety valve setting (descriptive)
 ("cab-34", "cabin_pressurisation", {"differential_pressure": 8.3}),           # cruise at FL 410 (descriptive)
 ("cab-35", "cabin_pressurisation", {"differential_pressure": 1.0}),
 ("cab-36", "cabin_pressurisation", {"differential_pressure": 1.01}),
 ("cab-37", "cabin_pressurisation", {"differential_pressure": 1.5}),
 ("cab-38", "cabin_pressurisation", {"differential_pressure": 1.51}),
 ("cab-39", "cabin_pressurisation", {"differential_pressure": 0.1}),           # pre-pressurization (descriptive)
 ("cab-40", "cabin_pressurisation", {"differential_pressure": -0.5}),          # negative relief setting (descriptive)
 ("cab-41", "cabin_pressurisation", {"differential_pressure": -1.0}),
 ("cab-42", "cabin_pressurisation", {"differential_pressure": -1.1}),
 ("cab-43", "cabin_pressurisation", {"differential_pressure": 1.4, "aircraft_vertical_speed": -1600}),
 ("cab-44", "cabin_pressurisation", {"differential_pressure": 1.4, "aircraft_vertical_speed": -1500}),
 ("cab-45", "cabin_pressurisation", {"differential_pressure": 1.8, "aircraft_vertical_speed": -2000}),   # history 2.0 psi
 ("cab-46", "cabin_pressurisation", {"differential_pressure": 0.5, "aircraft_vertical_speed": -2500}),
 ("cab-47", "cabin_pressurisation", {"differential_pressure": "nan", "aircraft_vertical_speed": -2500,
                                    "cabin_vertical_speed": -2500}),
 ("cab-48", "cabin_pressurisation", {"pack_compressor_outlet_temperature": 445.9}),
 ("cab-49", "cabin_pressurisation", {"pack_compressor_outlet_temperature": 446}),
 ("cab-50", "cabin_pressurisation", {"pack_compressor_outlet_temperature": 500}),
 ("cab-51", "cabin_pressurisation", {"pack_compressor_outlet_temperature": 500.5, "pack_outlet_temperature": "nan"}),
 ("cab-52", "cabin_pressurisation", {"pack_compressor_outlet_temperature": 230}),   # a °C-sized reading: 230 °F
 ("cab-53", "cabin_pressurisation", {"pack_outlet_temperature": 95}),
 ("cab-54", "cabin_pressurisation", {"pack_outlet_temperature": 95.5}),
 ("cab-55", "cabin_pressurisation", {"pack_outlet_temperature": 2}),
 ("cab-56", "cabin_pressurisation", {"pack_outlet_temperature": 2.1}),
 ("cab-57", "cabin_pressurisation", {"pack_outlet_temperature": -5}),
 ("cab-58", "cabin_pressurisation", {"duct_temperature": 190.4}),
 ("cab-59", "cabin_pressurisation", {"duct_temperature": 190.3}),
 ("cab-60", "cabin_pressurisation", {"duct_temperature": 88}),                 # a °C-sized reading: 88 °F
 ("cab-61", "cabin_pressurisation", {"bleed_pressure": 393.0}),
 ("cab-62", "cabin_pressurisation", {"bleed_pressure": 393.01}),
 ("cab-63", "cabin_pressurisation", {"bleed_pressure": 82.74}),
 ("cab-64", "cabin_pressurisation", {"bleed_pressure": 82.73}),
 ("cab-65", "cabin_pressurisation", {"bleed_pressure": 57}),                   # a psi-sized reading: 57 kPa
 ("cab-66", "cabin_pressurisation", {"bleed_pressure": 310.26, "bleed_temperature": 473.15}),   # regulated (descriptive)
 ("cab-67", "cabin_pressurisation", {"bleed_temperature": 540}),               # duration rule: never in a query
 ("cab-68", "cabin_pressurisation", {"bleed_temperature": 563.15}),
 ("cab-69", "cabin_pressurisation", {"bleed_temperature": 563.2}),
 ("cab-70", "cabin_pressurisation", {"zone_temperature": 24}),                 # selectable 18 to 30 °C (descriptive)
 ("cab-71", "cabin_pressurisation", {"zone_temperature": 17}),
 ("cab-72", "cabin_pressurisation", {"zone_temperature": 16}),
 ("cab-73", "cabin_pressurisation", {"zone_temperature": 15.9}),
 ("cab-74", "cabin_pressurisation", {"zone_temperature": 32}),                 # unless-parameter absent
 ("cab-75", "cabin_pressurisation", {"zone_temperature": 32.1, "bleed_pressure": 300}),
 ("cab-76", "cabin_pressurisation", {"zone_temperature": 27, "bleed_pressure": 300}),
 ("cab-77", "cabin_pressurisation", {"zone_temperature": 27.5, "bleed_pressure": 300}),
 ("cab-78", "cabin_pressurisation", {"zone_temperature": 27.5, "bleed_pressure": 206.84}),
 ("cab-79", "cabin_pressurisation", {"zone_temperature": 27.5, "bleed_pressure": 206.85}),
 ("cab-80", "cabin_pressurisation", {"zone_temperature": 28, "bleed_pressure": "nan"}),
 ("cab-81", "cabin_pressurisation", {"zone_temperature": 28, "bleed_pressure": 50}),
 ("cab-82", "cabin_pressurisation", {"cabin_altitude": 100, "cabin_vertical_speed": 0, "aircraft_vertical_speed": 0,
                                    "differential_pressure": 0.0, "outflow_valve_position": 100,
                                    "pack_outlet_temperature": 10, "pack_compressor_outlet_temperature": 350,
                                    "duct_temperature": 120, "zone_temperature": 23, "bleed_pressure": 310,
                                    "bleed_temperature": 473.15}),                                      # on ground, normal
 # radiotherapy_linac (water temperature in degF: 38/42/43/45 °C = 100.4/107.6/109.4/113 °F; magnetron current in A;
 # SF6 pressure in kPa: 25/32/35 psig = 172.36893/220.63223/241.31651)
 ("la-01", "radiotherapy_linac", {"water_temperature": 104}),                 # regulated to 40 °C (descriptive)
 ("la-02", "radiotherapy_linac", {"water_temperature": 101}),                 # daily check "reads between 39 and 41 °C"
 ("la-03", "radiotherapy_linac", {"water_temperature": 100.4}),
 ("la-04", "radiotherapy_linac", {"water_temperature": 100.3}),
 ("la-05", "radiotherapy_linac", {"water_temperature": 107.6}),
 ("la-06", "radiotherapy_linac", {"water_temperature": 107.7}),
 ("la-07", "radiotherapy_linac", {"water_temperature": 112.9}),
 ("la-08", "radiotherapy_linac", {"water_temperature": 113}),
 ("la-09", "radiotherapy_linac", {"water_temperature": 40}),                  # a °C-sized reading: 40 °F
 ("la-10", "radiotherapy_linac", {"daily_output_deviation": 3.0}),
 ("la-11", "radiotherapy_linac", {"daily_output_deviation": 3.1}),
 ("la-12", "radiotherapy_linac", {"daily_output_deviation": -3.0}),
 ("la-13", "radiotherapy_linac", {"daily_output_deviation": -3.1}),
 ("la-14", "radiotherapy_linac", {"daily_output_deviation": -2.5}),           # history: tolerance was ±2 %
 ("la-15", "radiotherapy_linac", {"daily_output_deviation": 5.0}),
 ("la-16", "radiotherapy_linac", {"daily_output_deviation": 5.01}),
 ("la-17", "radiotherapy_linac", {"daily_output_deviation": -5.0}),
 ("la-18", "radiotherapy_linac", {"daily_output_deviation": -5.5}),
 ("la-19", "radiotherapy_linac", {"daily_output_deviation": 1.5, "water_temperature": 104}),
 ("la-20", "radiotherapy_linac", {"daily_output_deviation": 1.6, "water_temperature": 104}),
 ("la-21", "radiotherapy_linac", {"daily_output_deviation": 1.6, "water_temperature": 100.3}),
 ("la-22", "radiotherapy_linac", {"daily_output_deviation": 1.6, "water_temperature": 100.4}),
 ("la-23", "radiotherapy_linac", {"daily_output_deviation": 1.6, "water_temperature": "nan"}),
 ("la-24", "radiotherapy_linac", {"daily_output_deviation": 2.0}),            # except-parameter absent
 ("la-25", "radiotherapy_linac", {"daily_output_deviation": 4, "water_temperature": 104}),
 ("la-26", "radiotherapy_linac", {"daily_output_deviation": -1.6, "water_temperature": 104}),
 ("la-27", "radiotherapy_linac", {"dose_per_mu_deviation": 0.9}),
 ("la-28", "radiotherapy_linac", {"dose_per_mu_deviation": 1.0}),
 ("la-29", "radiotherapy_linac", {"dose_per_mu_deviation": 2.0}),
 ("la-30", "radiotherapy_linac", {"dose_per_mu_deviation": 2.1}),
 ("la-31", "radiotherapy_linac", {"dose_per_mu_deviation": -1.0}),
 ("la-32", "radiotherapy_linac", {"dose_per_mu_deviation": -2.0}),
 ("la-33", "radiotherapy_linac", {"dose_per_mu_deviation": -2.05}),
 ("la-34", "radiotherapy_linac", {"dose_per_mu_deviation": -0.5}),
 ("la-35", "radiotherapy_linac", {"beam_symmetry": 1.0, "beam_flatness": 1.0}),
 ("la-36", "radiotherapy_linac", {"beam_symmetry": 2.0}),
 ("la-37", "radiotherapy_linac", {"beam_symmetry": 3.0}),
 ("la-38", "radiotherapy_linac", {"beam_symmetry": 3.1}),
 ("la-39", "radiotherapy_linac", {"beam_flatness": 3.0}),
 ("la-40", "radiotherapy_linac", {"beam_flatness": 3.05, "beam_symmetry": "nan"}),
 ("la-41", "radiotherapy_linac", {"beam_symmetry": 1.99, "beam_flatness": 2.5}),
 ("la-42", "radiotherapy_linac", {"gantry_angle_deviation": 1.0}),
 ("la-43", "radiotherapy_linac", {"gantry_angle_deviation": 1.1}),
 ("la-44", "radiotherapy_linac", {"collimator_angle_deviation": 0.5}),
 ("la-45", "radiotherapy_linac", {"collimator_angle_deviation": 0.6}),
 ("la-46", "radiotherapy_linac", {"gantry_angle_deviation": 0.6, "collimator_angle_deviation": 0.4}),
 ("la-47", "radiotherapy_linac", {"dose_rate": 6.0}),                         # nominal dose rate (parenthesis)
 ("la-48", "radiotherapy_linac", {"dose_rate": 5.4}),
 ("la-49", "radiotherapy_linac", {"dose_rate": 5.39}),
 ("la-50", "radiotherapy_linac", {"dose_rate": 6.6}),
 ("la-51", "radiotherapy_linac", {"dose_rate": 6.61}),
 ("la-52", "radiotherapy_linac", {"dose_rate": 25}),                          # alias nesting: not the room dose rate
 ("la-53", "radiotherapy_linac", {"dose_channel_difference": 2.0}),
 ("la-54", "radiotherapy_linac", {"dose_channel_difference": 2.01}),
 ("la-55", "radiotherapy_linac", {"magnetron_current": 0.12}),
 ("la-56", "radiotherapy_linac", {"magnetron_current": 0.121}),
 ("la-57", "radiotherapy_linac", {"magnetron_current": 120}),                 # an mA-sized reading: out of range
 ("la-58", "radiotherapy_linac", {"sf6_pressure": 220.63}),                   # filled to about 32 psig (descriptive)
 ("la-59", "radiotherapy_linac", {"sf6_pressure": 172.37}),
 ("la-60", "radiotherapy_linac", {"sf6_pressure": 172.36}),
 ("la-61", "radiotherapy_linac", {"sf6_pressure": 241.31}),
 ("la-62", "radiotherapy_linac", {"sf6_pressure": 241.32}),
 ("la-63", "radiotherapy_linac", {"sf6_pressure": 32}),                       # a psig-sized reading: 32 kPa
 ("la-64", "radiotherapy_linac", {"ion_pump_current": 0.5}),                  # "below 1 µA" (descriptive)
 ("la-65", "radiotherapy_linac", {"ion_pump_current": 15}),                   # duration rule: never in a query
 ("la-66", "radiotherapy_linac", {"ion_pump_current": 20}),
 ("la-67", "radiotherapy_linac", {"ion_pump_current": 20.5}),
 ("la-68", "radiotherapy_linac", {"ion_pump_current": 49.9}),
 ("la-69", "radiotherapy_linac", {"ion_pump_current": 50}),
 ("la-70", "radiotherapy_linac", {"water_temperature": 109.5, "magnetron_current": 0.101}),
 ("la-71", "radiotherapy_linac", {"water_temperature": 109.4, "magnetron_current": 0.11}),
 ("la-72", "radiotherapy_linac", {"water_temperature": 110, "magnetron_current": 0.1}),
 ("la-73", "radiotherapy_linac", {"water_temperature": 110}),
 ("la-74", "radiotherapy_linac", {"water_temperature": 110, "magnetron_current": 0.11, "ion_pump_current": "nan"}),
 ("la-75", "radiotherapy_linac", {"ion_pump_current": 25, "water_temperature": "nan", "magnetron_current": "nan"}),
 ("la-76", "radiotherapy_linac", {"ion_pump_current": 5, "water_temperature": 104, "magnetron_current": 0.11}),
 ("la-77", "radiotherapy_linac", {"room_dose_rate": 0.1}),                    # background (descriptive)
 ("la-78", "radiotherapy_linac", {"room_dose_rate": 7.4}),
 ("la-79", "radiotherapy_linac", {"room_dose_rate": 7.5}),
 ("la-80", "radiotherapy_linac", {"room_dose_rate": 20}),                     # alarm set point (descriptive)
 ("la-81", "radiotherapy_linac", {"room_dose_rate": 20.5}),
 ("la-82", "radiotherapy_linac", {"room_dose_rate": 6.0}),                    # alias nesting: not the dose rate
 ("la-83", "radiotherapy_linac", {"dose_rate": 6.0, "daily_output_deviation": 0.4, "dose_per_mu_deviation": 0.3,
                                  "beam_symmetry": 0.8, "beam_flatness": 1.2, "dose_channel_difference": 0.3,
                                  "magnetron_current": 0.09, "water_temperature": 104, "sf6_pressure": 220.6,
                                  "ion_pump_current": 0.5, "room_dose_rate": 0.1, "gantry_angle_deviation": 0.2,
                                  "collimator_angle_deviation": 0.1}),                                 # all normal
 # ammonia_refrigeration (suction pressure in kPa gauge: -6/-5/+2 psig = -41.36854/-34.47379/13.78951; discharge
 # pressure in bar gauge: 150/185/200/250 psig = 10.34214/12.75530/13.78951/17.23689; oil in psi; temperatures in degC:
 # 194/212/230/104 °F = 90/100/110/40 °C)
 ("nh-01", "ammonia_refrigeration", {"suction_pressure": -29.65}),            # -4.3 psig at -40 °F (descriptive; the oil-drain prohibition holds under vacuum)
 ("nh-02", "ammonia_refrigeration", {"suction_pressure": 0}),                 # pump-down to 0 psig (procedure)
 ("nh-03", "ammonia_refrigeration", {"suction_pressure": -0.1}),
 ("nh-04", "ammonia_refrigeration", {"suction_pressure": -34.47}),
 ("nh-05", "ammonia_refrigeration", {"suction_pressure": -34.48}),
 ("nh-06", "ammonia_refrigeration", {"suction_pressure": -41.36}),
 ("nh-07", "ammonia_refrigeration", {"suction_pressure": -41.37}),
 ("nh-08", "ammonia_refrigeration", {"suction_pressure": 13.78}),
 ("nh-09", "ammonia_refrigeration", {"suction_pressure": 13.8}),
 ("nh-10", "ammonia_refrigeration", {"suction_pressure": -6}),                # a psig-sized reading: -6 kPa
 ("nh-11", "ammonia_refrigeration", {"suction_pressure": -101}),
 ("nh-12", "ammonia_refrigeration", {"discharge_pressure": 7.0}),              # winter, near 100 psig (descriptive)
 ("nh-13", "ammonia_refrigeration", {"discharge_pressure": 10.34}),
 ("nh-14", "ammonia_refrigeration", {"discharge_pressure": 10.35}),
 ("nh-15", "ammonia_refrigeration", {"discharge_pressure": 12.75}),
 ("nh-16", "ammonia_refrigeration", {"discharge_pressure": 12.76}),
 ("nh-17", "ammonia_refrigeration", {"discharge_pressure": 13.78}),
 ("nh-18", "ammonia_refrigeration", {"discharge_pressure": 13.8}),
 ("nh-19", "ammonia_refrigeration", {"discharge_pressure": 17.24}),           # HPCO factory setting 250 psig
 ("nh-20", "ammonia_refrigeration", {"discharge_pressure": 185}),             # a psig-sized reading: out of range
 ("nh-21", "ammonia_refrigeration", {"discharge_temperature": 71}),           # normally 150 to 180 °F
 ("nh-22", "ammonia_refrigeration", {"discharge_temperature": 60}),           # 140 °F: below the typical band
 ("nh-23", "ammonia_refrigeration", {"discharge_temperature": 90}),
 ("nh-24", "ammonia_refrigeration", {"discharge_temperature": 90.1}),
 ("nh-25", "ammonia_refrigeration", {"discharge_temperature": 100}),
 ("nh-26", "ammonia_refrigeration", {"discharge_temperature": 100.1}),
 ("nh-27", "ammonia_refrigeration", {"discharge_temperature": 109.9}),
 ("nh-28", "ammonia_refrigeration", {"discharge_temperature": 110}),
 ("nh-29", "ammonia_refrigeration", {"discharge_temperature": 194}),          # an °F-sized reading: 194 °C
 ("nh-30", "ammonia_refrigeration", {"motor_current": 440}),
 ("nh-31", "ammonia_refrigeration", {"motor_current": 460}),                  # full-load current (descriptive)
 ("nh-32", "ammonia_refrigeration", {"motor_current": 480}),
 ("nh-33", "ammonia_refrigeration", {"motor_current": 480.5}),
 ("nh-34", "ammonia_refrigeration", {"motor_current": 481, "discharge_pressure": "nan", "discharge_temperature": "nan"}),
 ("nh-35", "ammonia_refrigeration", {"discharge_temperature": 101, "discharge_pressure": 12, "motor_current": 300}),
 ("nh-36", "ammonia_refrigeration", {"oil_pressure_differential": 50}),       # normally 45 to 55 psid
 ("nh-37", "ammonia_refrigeration", {"oil_pressure_differential": 30.1}),
 ("nh-38", "ammonia_refrigeration", {"oil_pressure_differential": 30}),
 ("nh-39", "ammonia_refrigeration", {"oil_pressure_differential": 20}),
 ("nh-40", "ammonia_refrigeration", {"oil_pressure_differential": 19.9}),     # duration rule: never in a query
 ("nh-41", "ammonia_refrigeration", {"receiver_level": 15}),
 ("nh-42", "ammonia_refrigeration", {"receiver_level": 15.1}),
 ("nh-43", "ammonia_refrigeration", {"receiver_level": 79.9}),
 ("nh-44", "ammonia_refrigeration", {"receiver_level": 80}),
 ("nh-45", "ammonia_refrigeration", {"receiver_level": 90}),                  # alias nesting: not the separator
 ("nh-46", "ammonia_refrigeration", {"separator_level": 75}),
 ("nh-47", "ammonia_refrigeration", {"separator_level": 75.5}),
 ("nh-48", "ammonia_refrigeration", {"separator_level": 84.9}),
 ("nh-49", "ammonia_refrigeration", {"separator_level": 85}),
 ("nh-50", "ammonia_refrigeration", {"separator_level": 20}),
 ("nh-51", "ammonia_refrigeration", {"separator_level": 20.1}),
 ("nh-52", "ammonia_refrigeration", {"separator_level": 10}),                 # alias nesting: not the receiver
 ("nh-53", "ammonia_refrigeration", {"ammonia_concentration": 5}),            # smell threshold (descriptive)
 ("nh-54", "ammonia_refrigeration", {"ammonia_concentration": 24.9}),
 ("nh-55", "ammonia_refrigeration", {"ammonia_concentration": 25}),
 ("nh-56", "ammonia_refrigeration", {"ammonia_concentration": 120}),          # history: Stage 2 was 100 ppm
 ("nh-57", "ammonia_refrigeration", {"ammonia_concentration": 150}),
 ("nh-58", "ammonia_refrigeration", {"ammonia_concentration": 300}),
 ("nh-59", "ammonia_refrigeration", {"ammonia_concentration": 300.5}),
 ("nh-60", "ammonia_refrigeration", {"ammonia_concentration": 39999}),
 ("nh-61", "ammonia_refrigeration", {"ammonia_concentration": 40000}),
 ("nh-62", "ammonia_refrigeration", {"machinery_room_temperature": 40, "ammonia_concentration": 0}),
 ("nh-63", "ammonia_refrigeration", {"machinery_room_temperature": 40.5, "ammonia_concentration": 0}),
 ("nh-64", "ammonia_refrigeration", {"machinery_room_temperature": 40.5, "ammonia_concentration": 149}),
 ("nh-65", "ammonia_refrigeration", {"machinery_room_temperature": 40.5, "ammonia_concentration": 150}),
 ("nh-66", "ammonia_refrigeration", {"machinery_room_temperature": 45}),       # except-parameter absent
 ("nh-67", "ammonia_refrigeration", {"machinery_room_temperature": 45, "ammonia_concentration": "nan"}),
 ("nh-68", "ammonia_refrigeration", {"machinery_room_temperature": 104, "ammonia_concentration": 0}),  # out of range
 ("nh-69", "ammonia_refrigeration", {"suction_pressure": -28, "discharge_pressure": 7.0, "oil_pressure_differential": 50,
                                     "discharge_temperature": 71, "receiver_level": 50, "separator_level": 50,
                                     "ammonia_concentration": 0, "machinery_room_temperature": 25,
                                     "motor_current": 400}),                                            # all normal
]

# ======================================================================= replays
R = [
 ("rp-bms-deadband", "battery_bms", "replay/bms_cell_overtemp.csv", ["cell_temperature"],
  [(0, 50), (10, 55), (20, 55.5), (30, 54), (40, 53), (50, 52.9), (60, 54), (70, 56), (80, 60), (90, 45)]),
 ("rp-water-turbidity", "water_treatment", "replay/water_turbidity.csv", ["turbidity"],
  [(0, 0.2), (3600, 0.35), (7200, 0.4), (9000, 0.5), (10800, 0.45), (14400, 0.4), (18000, 0.38),
   (18001, 0.37), (21600, 0.9), (25200, 0.3), (28800, 0.2)]),
 ("rp-sat-busvoltage", "satellite", "replay/sat_bus_undervoltage.csv", ["bus_voltage", "battery_temperature"],
  [(0, 28.0, 293.15), (2, 26.5, 293.15), (4, 26.0, 293.15), (6, 25.4, 293.15), (8, 25.0, 293.15),
   (10, 25.6, 293.15), (12, 25.2, 293.15), (16, 25.1, 293.15), (20, 25.3, 293.15), (22, 25.4, 293.15),
   (22.5, 25.3, 293.15), (25, 25.5, 293.15), (27, 26.2, 293.15), (29, 28.0, 293.15)]),
 ("rp-coldchain-excursion", "cold_chain", "replay/reefer_excursion.csv", ["cargo_temperature"],
  [(0, 40.0), (300, 46.4), (600, 47.0), (900, 48.0), (1200, 46.0), (1500, 47.5), (1800, 49.0), (2100, 50.0),
   (2400, 50.0), (2700, 49.0), (3000, 48.0), (3300, 48.0), (3600, 47.0), (3900, 46.4), (4200, 42.0)]),
 ("rp-vent-disconnect", "ventilator", "replay/vent_disconnect.csv", ["minute_volume", "paw_peak"],
  [(0, 6.0, 2.0), (10, 0.4, 2.0), (20, 0.3, 4.1), (25, 0.45, 4.0), (26, 0.2, 2.0), (30, 0.5, 2.0),
   (40, 0.1, 2.0), (50, 0.6, 2.0), (52, 0.2, 2.0), (67, 0.2, 2.0), (68, 5.0, 2.0)]),
 ("rp-hyd-a-press-low", "aircraft_fuel_hydraulics", "replay/hyd_a_press_low.csv", ["hyd_pressure_a"],
  [(0, 3000), (2, 1400), (6, 1450), (12, 1480), (12.5, 1490), (14, 2000), (20, 1400), (25, 1600),
   (26, 1450), (36, 1300), (37, 3000), (40, 3400), (42, 3350), (44, 3000)]),
 ("rp-marine-jacket-water", "marine_diesel", "replay/marine_jacket_water.csv", ["jacket_water_temperature"],
  [(0, 85), (60, 96), (90, 96.5), (150, 97), (210, 97), (211, 97.5), (240, 100), (270, 99.9), (300, 95),
   (330, 97), (400, 96), (420, 98), (540, 98), (541, 95)]),
 ("rp-sterile-dp", "sterile_filling", "replay/sterile_dp_excursion.csv", ["room_dp", "isolator_pressure"],
  [(0, 15, -90), (10, 9, -90), (100, 9.5, -90), (150, 12, -90), (160, 8, -90), (200, 8.5, -45), (250, 9, -50),
   (340, 9, -50), (341, 9.5, -50), (400, 10, -60), (420, 15, -90), (1000, 15, -90)]),
 ("rp-reactor-pool-temp", "research_reactor", "replay/reactor_pool_temperature.csv", ["pool_temperature", "reactor_power"],
  [(0, 38, 100), (60, 40, 100), (120, 40.5, 100), (600, 41, 100), (1020, 42, 100), (1021, 42, 100),
   (1100, 45, 50), (1150, 45.5, 50), (1200, 44, 50), (1250, 44, 110), (1300, 40, 50), (1400, 41, 50),
   (2000, 39, 50), (2100, 41, 50), (3000, 41, 50), (3001, 41.5, 50), (3100, 38, 50), (4200, 38, 50)]),
 ("rp-chiller-standby", "chiller_plant", "replay/chiller_standby.csv", ["chwst", "cold_aisle_temperature"],
  [(0, 15, 24), (60, 20, 24), (120, 20.5, 24), (300, 21, 24), (420, 21.5, 24), (421, 22, 24), (480, 24, 27.5),
   (540, 23.8, 27), (600, 19.5, 24), (660, 20.1, 24), (900, 19.9, 24), (960, 20.2, 24), (1260, 20.2, 24),
   (1261, 20.3, 24), (1300, 15, 24), (2000, 15, 24)]),
 ("rp-lab-fridge-excursion", "clinical_lab", "replay/lab_fridge_excursion.csv", ["fridge_temperature", "freezer_temperature"],
  [(0, 4.0, -30), (300, 6.5, -30), (900, 5.5, -30), (1200, 6.3, -30), (1800, 8.5, -30), (2100, 7.0, -30),
   (3000, 6.8, -30), (3001, 6.8, -30), (3300, 1.5, -30), (3400, 0.8, -30), (3500, 2.0, -30), (3600, 4.0, -20),
   (3700, 4.0, -25), (7200, 4.0, -30)]),
 ("rp-mine-fan-stoppage", "mine_ventilation", "replay/mine_fan_stoppage.csv", ["fan_pressure", "methane"],
  [(0, 3200, 0.3), (60, 800, 0.3), (300, 1100, 0.5), (400, 1300, 0.6), (500, 1000, 0.8), (900, 900, 1.0),
   (1000, 500, 1.3), (1400, 400, 1.3), (1401, 400, 1.2), (1500, 1200, 0.9), (1600, 3200, 0.3), (3600, 3200, 0.3)]),
 ("rp-lng-tank-pressure", "lng_tank", "replay/lng_tank_pressure.csv", ["tank_pressure", "roof_gas"],
  [(0, 15, 0), (60, 23.5, 0), (300, 24, 0), (400, 22, 0), (500, 23.2, 0), (800, 28.5, 0), (900, 25, 0),
   (1000, 25, 12), (1100, 24, 12), (1101, 24, 10), (1150, 24, 9.9), (1200, 23, 0), (1300, 18, 0), (3600, 15, 0)]),
 ("rp-wind-high-wind-derate", "wind_turbine", "replay/wind_high_wind_derate.csv", ["wind_speed"],
  [(0, 40), (60, 75), (300, 70), (360, 73), (900, 80), (960, 80), (961, 80), (1000, 92), (1100, 90), (1200, 72),
   (1300, 50), (1400, 54), (3000, 30), (3600, 30)]),
 ("rp-haccp-chilled-store", "haccp_cook_chill", "replay/haccp_chilled_store.csv", ["store_temperature", "door_open_time"],
  [(0, 2, 0), (300, 8.5, 0), (1200, 7.5, 0), (1500, 9, 0), (2400, 9, 200), (2500, 9, 0), (4200, 9.5, 0),
   (4201, 9.5, 0), (4500, 8, 0), (4800, 4, 0), (7200, 3, 0), (9000, 2, 0)]),
 ("rp-hd-tmp-high", "haemodialysis", "replay/hd_tmp_high.csv", ["tmp", "venous_pressure"],
  [(0, 20, 150), (10, 40.0, 150), (40, 39.99, 150), (50, 40.5, 150), (110, 41, 150), (111, 41, 150),
   (150, 60, 320), (160, 59.99, 300), (200, 39.99, 150), (300, 30, 150), (1200, 25, 150)]),
 ("rp-gc-exhaust-fail", "gas_cabinet", "replay/gc_exhaust_fail.csv", ["exhaust_static_pressure", "silane_concentration"],
  [(0, -0.375, 0), (2, -0.2, 0), (4, -0.1, 0), (8, -0.125, 0), (10, -0.11, 0), (16, -0.05, 1.0), (20, -0.05, 0.5),
   (20.5, -0.06, 0.5), (24, -0.12, 3.0), (26, -0.13, 3.0), (30, -0.25, 0.2), (32, -0.26, 0), (600, -0.375, 0)]),
 ("rp-wc-background-gas", "well_control", "replay/wc_background_gas.csv", ["total_gas", "pit_gain"],
  [(0, 150, 0), (60, 320, 0), (600, 300, 0), (700, 310, 0.2), (1200, 1050, 0.5), (1300, 800, 0.8), (1400, 700, 0.79),
   (1900, 650, 1.6), (1901, 640, 1.0), (2000, 500, 0), (2400, 300, 0), (2500, 310, 0), (2600, 200, 0), (4000, 150, 0)]),
 ("rp-dc-rack-inlet", "data_centre", "replay/dc_rack_inlet.csv", ["rack_inlet_temperature"],
  [(0, 75), (60, 81), (300, 80.6), (400, 80.7), (700, 96), (800, 94), (1300, 85), (1301, 85), (1500, 80.6),
   (1600, 58), (1700, 59), (3600, 72)]),
 ("rp-an-apnoea-co2", "anaesthesia_workstation", "replay/an_apnoea_co2.csv", ["etco2", "spo2"],
  [(0, 5.0, 98), (10, 0.5, 98), (30, 1.2, 98), (40, 0.4, 98), (70, 0.3, 89), (70.5, 0.3, 89), (80, 1.0, 92),
   (90, 1.1, 92), (100, 5.0, 97), (600, 5.2, 98)]),
 ("rp-tv-rail-potential", "tunnel_ventilation", "replay/tv_rail_potential.csv", ["rail_potential", "line_voltage"],
  [(0, 20, 0.75), (1, 130, 0.75), (3, 120, 0.75), (4, 125, 0.75), (6, 140, 0.48), (9, 150, 0.48), (9.5, 150, 0.5),
   (12, 121, 0.75), (14, 120, 0.75), (15, 30, 0.92), (16, 30, 0.9), (300, 25, 0.75)]),
 ("rp-br-temperature-excursion", "bioreactor", "replay/br_temperature_excursion.csv", ["culture_temperature"],
  [(0, 98.6), (60, 100.6), (200, 100.4), (300, 100.5), (900, 101), (901, 101), (1000, 100.4), (1100, 99.5),
   (1200, 97.6), (1300, 97.7), (3600, 98.6)]),
 ("rp-ts3-turbopump-vibration", "rocket_test_stand", "replay/ts3_turbopump_vibration.csv",
  ["turbopump_vibration", "turbopump_speed"],
  [(0, 2, 0), (1, 5, 31000), (2, 13, 31000), (2.25, 12, 31000), (3, 14, 31000), (3.5, 14, 31000), (3.75, 15, 31000),
   (4, 22, 31000), (4.25, 22, 30000), (4.5, 12, 30000), (5, 3, 36500), (5.5, 3, 36600), (6, 3, 38000), (6.5, 3, 37000),
   (7, 3, 36500), (8, 2, 0)]),
 ("rp-ni-air-temperature-low", "neonatal_incubator", "replay/ni_air_temperature_low.csv",
  ["air_temperature", "relative_humidity"],
  [(0, 93.2, 60), (60, 85, 60), (300, 86, 60), (400, 85.5, 60), (1000, 85.5, 60), (1001, 85.5, 60), (1100, 85.5, 82),
   (1200, 86, 82), (1300, 89.6, 82), (1400, 93.2, 60), (3600, 93.2, 60)]),
 ("rp-el-dryer-dew-point", "electrolyser_plant", "replay/el_dryer_dew_point.csv", ["dew_point", "h2_in_o2"],
  [(0, -94, 0.2), (60, -80, 0.2), (200, -85, 0.2), (300, -84, 0.2), (400, -84, 1.1), (500, -84, 2.0), (550, -84, 1.0),
   (600, -84, 0.2), (601, -83, 0.2), (700, -39, 0.2), (800, -40, 0.2), (900, -85, 0.2), (1000, -94, 0.2),
   (3600, -94, 0.2)]),
 ("rp-hx-torque-top", "helicopter_transmission", "replay/hx_torque_top.csv",
  ["torque", "mgb_oil_temperature", "mgb_oil_pressure"],
  [(0, 75, 180, 450), (10, 102, 180, 450), (100, 100, 180, 450), (200, 104, 180, 450), (400, 108, 215, 450),
   (450, 108, 212, 450), (480, 108, 211.9, 450), (500, 108, 190, 450), (501, 108, 190, 450), (550, 112, 190, 450),
   (560, 110, 190, 450), (600, 100, 190, 450), (700, 75, 180, 450), (3600, 75, 180, 450)]),
 ("rp-hbo-chamber-temperature", "hyperbaric_chamber", "replay/hbo_chamber_temperature.csv",
  ["chamber_temperature", "relative_humidity"],
  [(0, 73.4, 50), (60, 87, 50), (200, 86, 50), (300, 86.5, 50), (900, 88, 50), (901, 88, 50), (950, 88, 78),
   (1000, 88, 75), (1100, 86, 60), (1200, 80.6, 60), (1300, 73.4, 29), (1400, 73.4, 30), (3600, 73.4, 50)]),
 ("rp-dh-makeup-leak", "district_heating_substation", "replay/dh_makeup_leak.csv",
  ["makeup_water_flow", "expansion_vessel_pressure"],
  [(0, 0, 0.15), (60, 60, 0.15), (600, 50, 0.15), (700, 55, 0.15), (1500, 55, 0.125), (2500, 55, 0.125),
   (2501, 55, 0.12), (2600, 20, 0.12), (2700, 0, 0.09), (2800, 0, 0.1), (2900, 0, 0.13), (3600, 0, 0.15)]),
 ("rp-ec-ppco2-high", "spacecraft_eclss", "replay/ec_ppco2_high.csv", ["ppco2"],
  [(0, 2.5), (300, 4.5), (900, 4.0), (1200, 4.2), (2400, 5.0), (3000, 4.8), (3001, 4.8), (3300, 6.0), (3400, 5.9),
   (3600, 4.0), (4000, 2.5), (7200, 2.5)]),
 ("rp-bb-freezer-excursion", "blood_bank", "replay/bb_freezer_excursion.csv", ["freezer_temperature"],
  [(0, -22), (60, -10), (600, -13), (700, -12), (1300, -5), (1500, 0), (1600, -0.4), (1900, -8), (1901, -8),
   (2200, -13), (2500, -22), (3000, -41), (3100, -40), (3600, -22), (7200, -22)]),
 ("rp-fh-low-o2", "fired_heater", "replay/fh_low_o2.csv", ["flue_gas_o2", "firing_rate"],
  [(0, 3.0, 70), (10, 1.4, 70), (60, 1.5, 70), (100, 1.2, 70), (160, 0.9, 70), (200, 1.0, 70), (220, 1.1, 70),
   (220.5, 1.1, 70), (250, 1.5, 70), (300, 6.0, 70), (330, 6.0, 50), (360, 9.0, 25), (400, 9.0, 30), (430, 3.0, 30),
   (600, 3.0, 70), (3600, 3.0, 70)]),
 ("rp-hy-cooling-water-low", "hydropower_unit", "replay/hy_cooling_water_low.csv", ["cooling_water_flow"],
  [(0, 420), (30, 240), (60, 170), (120, 180), (150, 175), (200, 160), (270, 172), (271, 170), (330, 180), (400, 250),
   (430, 251), (500, 430), (3600, 420)]),
 ("rp-mr-cold-head-warm", "mri_system", "replay/mr_cold_head_warm.csv", ["cold_head_temperature"],
  [(0, 4.2), (300, 4.8), (900, 4.5), (1000, 4.6), (1800, 5.2), (2200, 4.9), (2201, 4.9), (2400, 6.0), (2500, 5.9),
   (2700, 4.5), (3000, 4.2), (7200, 4.2)]),
 ("rp-fd-chamber-pressure-high", "freeze_dryer", "replay/fd_chamber_pressure_high.csv", ["chamber_pressure"],
  [(0, 8), (60, 16), (300, 15), (400, 15.5), (700, 30), (760, 29.9), (1000, 16), (1001, 16), (1200, 15), (1300, 9),
   (1400, 8), (3600, 8)]),
 ("rp-ecmo-svo2-low", "ecmo_circuit", "replay/ecmo_svo2_low.csv", ["svo2", "haemoglobin"],
  [(0, 75, 100), (30, 59, 100), (90, 60, 100), (100, 58, 100), (220, 57, 100), (220.5, 57, 100), (260, 54, 100),
   (300, 55, 100), (320, 58, 75), (400, 60, 90), (460, 65, 90), (600, 75, 100), (3600, 75, 100)]),
 ("rp-ss-hold-temperature-low", "steam_steriliser", "replay/ss_hold_temperature_low.csv",
  ["chamber_temperature", "chamber_pressure"],
  [(0, 275.0, 310), (10, 273.1, 305), (15, 273.2, 305), (20, 273.0, 304), (30, 272.8, 303), (30.5, 272.9, 303),
   (40, 273.2, 305), (50, 275.0, 330), (55, 275.0, 329), (70, 284.5, 318), (75, 284.0, 318), (90, 275.0, 310),
   (3600, 275.0, 310)]),
 ("rp-cs-seal-gas-dp", "compressor_station", "replay/cs_seal_gas_dp.csv",
  ["seal_gas_differential_pressure", "shaft_vibration"],
  [(0, 120, 30), (5, 45, 30), (10, 50, 30), (12, 48, 30), (22, 40, 30), (22.5, 40, 30), (30, 50, 30), (35, 80, 100),
   (40, 80.1, 100.5), (45, 120, 75), (60, 120, 30), (600, 120, 30)]),
 ("rp-cab-bleed-ovht", "cabin_pressurisation", "replay/cab_bleed_ovht.csv", ["bleed_temperature"],
  [(0, 473.15), (10, 535), (40, 530.15), (50, 540), (105, 541), (105.5, 541), (120, 565), (130, 563.15),
   (150, 530.15), (160, 531), (200, 500), (600, 473.15)]),
 ("rp-la-ion-pump", "radiotherapy_linac", "replay/la_ion_pump.csv", ["ion_pump_current"],
  [(0, 0.8), (60, 12), (200, 10), (250, 15), (550, 15), (551, 15), (600, 50), (650, 49.9), (700, 20), (760, 10),
   (800, 0.8), (3600, 0.8)]),
 ("rp-nh-oil-failure", "ammonia_refrigeration", "replay/nh_oil_failure.csv", ["oil_pressure_differential"],
  [(0, 50), (5, 15), (20, 20), (25, 25), (30, 18), (60, 18), (60.5, 18), (70, 19.9), (80, 20), (90, 30), (95, 30.1),
   (100, 50), (600, 50)]),
]

def valid_state(dom, st):
    out = {}
    for k, x in st.items():
        if isinstance(x, str):      # "nan"
            continue
        fx = F(str(x))
        lo, hi = RANGES[dom][k]
        if lo <= fx <= hi:
            out[k] = fx
    return out

def fires(dom, st):
    s = valid_state(dom, st)
    return [r[0] for r in DOMAINS[dom] if r[2] is None and r[1](s) is True]

def replay(dom, cols, rows):
    ev = []
    state = {}
    for i, r in enumerate(DOMAINS[dom]):
        state[i] = {"raised": False, "since": None}
    for row in rows:
        t = F(str(row[0]))
        s = valid_state(dom, dict(zip(cols, row[1:])))
        for i, r in enumerate(DOMAINS[dom]):
            piece, cond, dur = r[0], r[1], r[2]
            hyst = r[3] if len(r) > 3 else None
            st = state[i]
            holds = cond(s) is True
            if st["raised"]:
                keep = (hyst(s) is True) if hyst else holds
                if not keep:
                    st["raised"] = False; st["since"] = None
                    ev.append((float(t), "clear", piece))
                    # a sample that clears may also start a new holding period
                    if holds:
                        st["since"] = t
                continue
            if holds:
                if st["since"] is None:
                    st["since"] = t
                if dur is None or (t - st["since"]) > dur:
                    st["raised"] = True
                    ev.append((float(t), "raise", piece))
            else:
                st["since"] = None
    return ev

def norm(x): return re.sub(r"\s+", " ", x).strip().lower()

def main():
    # every piece must occur exactly once in its domain's manual(s)
    for dom, rules in DOMAINS.items():
        body = ""
        for fn in sorted(os.listdir(os.path.join(HERE, dom))):
            if fn.endswith((".txt", ".md")):
                body += norm(open(os.path.join(HERE, dom, fn), encoding="utf-8").read()) + " "
        for r in rules:
            n = body.count(norm(r[0]))
            assert n == 1, (dom, r[0], n)
        # pieces must not contain each other within a domain
        for a in rules:
            for b in rules:
                if a is not b:
                    assert norm(a[0]) not in norm(b[0]), (a[0], b[0])
    with open(os.path.join(HERE, "queries.jsonl"), "w", encoding="utf-8") as f:
        for qid, dom, st in Q:
            state = {k: (x if not isinstance(x, str) else x) for k, x in st.items()}
            f.write(json.dumps({"id": qid, "domain": dom, "state": state, "expect": fires(dom, st)},
                               ensure_ascii=False) + "\n")
    os.makedirs(os.path.join(HERE, "replay"), exist_ok=True)
    with open(os.path.join(HERE, "replay.jsonl"), "w", encoding="utf-8") as f:
        for rid, dom, csv, cols, rows in R:
            with open(os.path.join(HERE, csv), "w") as c:
                c.write(",".join(["time"] + cols) + "\n")
                for row in rows:
                    c.write(",".join(str(x) for x in row) + "\n")
            ev = replay(dom, cols, rows)
            f.write(json.dumps({"id": rid, "domain": dom, "csv": csv,
                                "expect": [[t, e, p] for t, e, p in ev]}, ensure_ascii=False) + "\n")

if __name__ == "__main__":
    main()
